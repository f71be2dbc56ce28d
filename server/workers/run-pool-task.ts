/**
 * Runs one WorkerPool task inside a worker thread: imports the task's module (cached per thread),
 * calls its named export with `(input, context)` (PoolTaskContext), and wraps the outcome in an
 * envelope, because structured cloning keeps only an Error's name and message (an AppError's code
 * and status would be lost): `{ ok: true, value }` or `{ ok: false, error }` (AppError.toJSON, or a
 * message).
 */
import { threadId, type MessagePort } from 'node:worker_threads'
import { AppError, type AppErrorJson } from '../errors/app-error'

/** What WorkerPool posts for one task. */
export interface PoolTaskMessage {
  /** file: URL of the task module. */
  module: string
  /** Named export of that module: `(input, context) => output | Promise<output>`. */
  name: string
  input: unknown
  /** Where the task's events go (see PoolTaskEvent); closed when the task ends. */
  events: MessagePort
  /**
   * Bytes of heap and external memory (ArrayBuffers, WASM memories) past which the thread asks to
   * be retired once its task is over (see PoolTaskEvent `retire`).
   */
  retireAboveBytes: number
}

/** Events a task sends while it runs: its start (module loaded), then progress reports. */
export type PoolTaskEvent =
  | { type: 'started' }
  | { type: 'progress'; fraction: number; message: string }
  | { type: 'retire'; threadId: number; heldBytes: number }

/** What WorkerPool answers to a `retire` event, before the task's outcome is sent. */
export interface PoolRetireAck {
  type: 'retire-ack'
}

/** What WorkerPool.runOnSlot posts to its holding task when the work on the slot is over. */
export interface PoolSlotRelease {
  type: 'release'
  /** Whether the work succeeded (the holding task then ends as completed, else as failed). */
  ok: boolean
}

/** The envelope a task answers with. */
export type PoolTaskOutcome =
  { ok: true; value: unknown } | { ok: false; error: AppErrorJson | { message: string } }

/** What a task function receives besides its input. */
export interface PoolTaskContext {
  /** Reports progress: `fraction` in 0..1 and a short user-facing message. */
  reportProgress(fraction: number, message: string): void
  /**
   * Resolves with `ok` when the pool releases the task. Only WorkerPool.runOnSlot's holding task
   * (slot-task.ts) is ever released; any other task calling it waits until its timeout.
   */
  untilReleased(): Promise<boolean>
}

type TaskFunction = (input: unknown, context: PoolTaskContext) => unknown

const modules = new Map<string, Promise<Record<string, unknown>>>()

/**
 * Asks the pool to retire this thread when it holds more than `limit` bytes, and waits for the
 * pool's acknowledgement, so that the pool marks the thread before its outcome arrives and gives
 * it no further task. V8 keeps a grown heap and freed ArrayBuffers leave glibc arenas large; only
 * ending the thread gives that memory back for sure.
 */
async function retireIfGrown(events: MessagePort, limit: number): Promise<void> {
  const { heapTotal, external } = process.memoryUsage()
  const heldBytes = heapTotal + external
  if (heldBytes <= limit) return
  const acknowledged = new Promise<void>((resolve) => {
    events.on('message', (message: PoolRetireAck) => {
      if (message.type === 'retire-ack') resolve()
    })
  })
  events.postMessage({ type: 'retire', threadId, heldBytes } satisfies PoolTaskEvent)
  await acknowledged
}

export async function runPoolTask(message: PoolTaskMessage): Promise<PoolTaskOutcome> {
  const { events } = message
  try {
    return await runTask(message)
  } finally {
    await retireIfGrown(events, message.retireAboveBytes)
    events.close()
  }
}

async function runTask(message: PoolTaskMessage): Promise<PoolTaskOutcome> {
  const { events } = message
  try {
    let loading = modules.get(message.module)
    if (!loading) {
      loading = import(message.module) as Promise<Record<string, unknown>>
      modules.set(message.module, loading)
    }
    const fn = (await loading)[message.name]
    if (typeof fn !== 'function')
      throw new Error(`${message.module} has no task function ${message.name}`)
    const context: PoolTaskContext = {
      reportProgress: (fraction, text) =>
        events.postMessage({ type: 'progress', fraction, message: text } satisfies PoolTaskEvent),
      untilReleased: () =>
        new Promise((resolve) => {
          events.on('message', (message: PoolSlotRelease) => {
            if (message.type === 'release') resolve(message.ok)
          })
        }),
    }
    events.postMessage({ type: 'started' } satisfies PoolTaskEvent)
    return { ok: true, value: await (fn as TaskFunction)(message.input, context) }
  } catch (error) {
    return {
      ok: false,
      error:
        error instanceof AppError
          ? error.toJSON()
          : { message: error instanceof Error ? error.message : String(error) },
    }
  }
}
