/**
 * Task functions for the WorkerPool tests: each exercises one behaviour of a pool thread (its
 * identity, its heap caps, progress, a hang, a heap bomb, a thrown AppError).
 */
import { resourceLimits, threadId, type ResourceLimits } from 'node:worker_threads'
import { AppError } from '../errors/app-error'
import type { ErrorCode } from '../errors/error-codes'
import type { PoolTaskContext } from '../workers/worker-pool'

/** Answers with the input and the id of the thread it ran on. */
export function echo(input: string): { input: string; threadId: number } {
  return { input, threadId }
}

/** Answers with the heap caps the thread runs under. */
export function limits(): ResourceLimits {
  return resourceLimits
}

/** Reports three progress steps, then answers. */
export function stepped(_input: null, context: PoolTaskContext): string {
  context.reportProgress(0.25, 'first quarter')
  context.reportProgress(0.5, 'half way')
  context.reportProgress(1, 'done')
  return 'finished'
}

/** Never finishes on its own: a synchronous loop only a terminated thread escapes. */
export function spin(): never {
  for (;;) {
    // burn CPU until the pool terminates this thread
  }
}

/**
 * Allocates until the thread's heap cap is hit, growing one array of small strings: the shape
 * whose scavenges promote the most at once (see server/workers/thread-limits.ts).
 */
export function exhaustHeap(): number {
  const hoard: string[] = []
  for (let i = 0; ; i += 1) hoard.push(`row ${i} of the hoard, kept`)
}

/** Throws the AppError it is given. */
export function fail(input: { code: ErrorCode; detail: string }): never {
  throw new AppError(input.code, input.detail)
}

/** Throws a plain Error, as a bug in a task would. */
export function throwPlain(input: string): never {
  throw new Error(input)
}

/** Kept by hoardMemory for the thread's life, as a library cache or a grown WASM memory would be. */
const hoard: ArrayBuffer[] = []

/** Keeps `mib` MiB of ArrayBuffers alive in its thread, then answers with the thread's id. */
export function hoardMemory(mib: number): number {
  for (let i = 0; i < mib; i += 1)
    new Uint8Array((hoard[hoard.length] = new ArrayBuffer(1 << 20))).fill(1)
  return threadId
}
