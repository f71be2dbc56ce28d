/**
 * The local engine as an Analyzer: analyzeLocal runs in one long-lived worker thread so that a
 * long contract (hundreds of milliseconds of CPU) never blocks the server's event loop.
 */
import type { Worker } from 'node:worker_threads'
import { startTsWorker } from '../../workers/start-ts-worker'
import type { AnalysisKind, AnalysisResult, Analyzer } from './types'

/** A job as posted to local-worker.ts. */
export interface LocalJob {
  id: number
  content: string
  kind: AnalysisKind
}

/** The worker's answer to one job. */
export type LocalJobReply = { id: number; result: AnalysisResult } | { id: number; error: string }

interface PendingJob extends LocalJob {
  resolve: (result: AnalysisResult) => void
  reject: (error: Error) => void
  signal?: AbortSignal
  onAbort?: () => void
}

const WORKER_URL = new URL('./local-worker.ts', import.meta.url)

/**
 * Runs the local analysis engine off the main thread.
 *
 * Jobs are queued and run one at a time on a single reused worker (analysis is CPU-bound, so a
 * second worker would only compete for the same cores). `analyze` rejects with the signal's
 * reason when aborted (a running job's worker is terminated and replaced lazily), and with an
 * Error "The local analysis engine failed: …" when the worker throws or dies. `close()` rejects
 * every pending job and terminates the worker; later calls to `analyze` reject.
 */
export class LocalAnalyzer implements Analyzer {
  // Not imported from analyze-local: that would load the language and clause models here too.
  readonly engine = 'local'
  private worker: Worker | null = null
  private readonly queue: PendingJob[] = []
  private running: PendingJob | null = null
  private nextId = 1
  private closed = false

  analyze(content: string, kind: AnalysisKind, signal?: AbortSignal): Promise<AnalysisResult> {
    if (this.closed)
      return Promise.reject(new Error('The local analysis engine has been shut down.'))
    if (signal?.aborted) return Promise.reject(abortReason(signal))
    return new Promise<AnalysisResult>((resolve, reject) => {
      const job: PendingJob = { id: this.nextId++, content, kind, resolve, reject, signal }
      if (signal) {
        job.onAbort = () => this.abort(job)
        signal.addEventListener('abort', job.onAbort, { once: true })
      }
      this.queue.push(job)
      this.pump()
    })
  }

  async close(): Promise<void> {
    this.closed = true
    const error = new Error('The local analysis engine has been shut down.')
    for (const job of this.queue.splice(0)) this.settle(job, error)
    if (this.running) this.settle(this.running, error)
    this.running = null
    await this.stopWorker()
  }

  private pump(): void {
    if (this.running || this.closed) return
    const job = this.queue.shift()
    if (!job) {
      // An idle worker must not keep the process alive (CLI scripts, tests).
      this.worker?.unref()
      return
    }
    this.running = job
    const worker = this.ensureWorker()
    worker.ref()
    worker.postMessage({ id: job.id, content: job.content, kind: job.kind } satisfies LocalJob)
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker
    const worker = startTsWorker(WORKER_URL)
    worker.on('message', (reply: LocalJobReply) => {
      const job = this.running
      if (!job || job.id !== reply.id) return
      this.running = null
      if ('result' in reply) this.settle(job, reply.result)
      else this.settle(job, new Error(`The local analysis engine failed: ${reply.error}`))
      this.pump()
    })
    worker.on('error', (error) => this.onWorkerDeath(worker, error.message))
    worker.on('exit', (code) => this.onWorkerDeath(worker, `worker stopped with exit code ${code}`))
    this.worker = worker
    return worker
  }

  /** Fails the running job when its worker dies unexpectedly, then carries on with a fresh worker. */
  private onWorkerDeath(worker: Worker, reason: string): void {
    if (this.worker !== worker) return
    this.worker = null
    const job = this.running
    this.running = null
    if (job) this.settle(job, new Error(`The local analysis engine failed: ${reason}`))
    this.pump()
  }

  private abort(job: PendingJob): void {
    const reason = abortReason(job.signal)
    const queued = this.queue.indexOf(job)
    if (queued >= 0) {
      this.queue.splice(queued, 1)
      this.settle(job, reason)
      return
    }
    if (this.running !== job) return
    // analyzeLocal is synchronous inside the worker: the only way to stop it is to end the thread.
    this.running = null
    this.settle(job, reason)
    void this.stopWorker().then(() => this.pump())
  }

  private async stopWorker(): Promise<void> {
    const worker = this.worker
    this.worker = null
    if (worker) await worker.terminate()
  }

  private settle(job: PendingJob, outcome: AnalysisResult | Error): void {
    if (job.signal && job.onAbort) job.signal.removeEventListener('abort', job.onAbort)
    if (outcome instanceof Error) job.reject(outcome)
    else job.resolve(outcome)
  }
}

function abortReason(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason
  return reason instanceof Error
    ? reason
    : new DOMException('The analysis was aborted.', 'AbortError')
}
