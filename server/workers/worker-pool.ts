/**
 * The one pool of worker threads for CPU-heavy work (text extraction, local analysis, local
 * embedding, and through `runOnSlot` the speech and OCR programs), built on piscina. It caps
 * concurrency (default: the machine's cores) and queues the rest fairly between organisations
 * (FairScheduler: least-running share first, round-robin among equals, and one spare thread for an
 * organisation running nothing; decision 0107), gives each task a wall-clock timeout and an
 * AbortSignal, caps each thread's heap (`resourceLimits`) so a decompression bomb kills one thread
 * and never the server, replaces threads that die, retires a thread that holds more than
 * `recycleAboveMb` after a task (so memory a bomb made it grow goes back to the system), and
 * counts queued, running, completed, failed and recycled tasks.
 *
 * A task is a named export of a TypeScript module, declared once with `poolTask(url, name)` and
 * run with `pool.run(task, input, options)`; work outside the threads (a child process) holds a
 * thread with `pool.runOnSlot(work)`. Errors: an AppError thrown in the task is rethrown as an
 * AppError; any other failure rejects with a WorkerTaskFailure whose `reason` says what happened,
 * unless the task declared, in its one failure map (TaskFailures), the AppError that reason
 * becomes for its callers (a job, a route): then that AppError, with the failure as its cause.
 */
import os from 'node:os'
import { MessageChannel } from 'node:worker_threads'
import { fileURLToPath } from 'node:url'
import { Piscina } from 'piscina'
import { AppError } from '../errors/app-error'
import type { ErrorCode } from '../errors/error-codes'
import { FairScheduler, type ReleaseSlot } from './fair-scheduler'
import { currentPoolShare } from './pool-share'
import { threadResourceLimits } from './thread-limits'
import type {
  PoolRetireAck,
  PoolSlotRelease,
  PoolTaskEvent,
  PoolTaskMessage,
  PoolTaskOutcome,
} from './run-pool-task'

export type { PoolTaskContext } from './run-pool-task'

/**
 * What each way a task can fail outside its own code becomes for its callers: a problem code and
 * a user-safe detail (a function of the run's wall-clock limit in ms when it names it). A reason
 * left out stays a WorkerTaskFailure (e.g. 'aborted': the caller's own cancel).
 */
export type TaskFailures = Partial<
  Record<
    WorkerTaskFailureReason,
    { code: ErrorCode; detail: string | ((timeoutMs: number) => string) }
  >
>

/** A typed handle on a task function `(input: I, context) => O` living in a worker module. */
export interface PoolTask<I, O> {
  readonly module: string
  readonly name: string
  /** The task's failure map (see TaskFailures). */
  readonly failures: TaskFailures
  /** Phantom field carrying the input and output types; never set. */
  readonly types?: { input: I; output: O }
}

/**
 * Declares a task: `poolTask<In, Out>(new URL('./my-task.ts', import.meta.url), 'myTask',
 * failures)`, with its failure map in the same place.
 */
export function poolTask<I, O>(
  module: URL,
  name: string,
  failures: TaskFailures = {},
): PoolTask<I, O> {
  return { module: module.href, name, failures }
}

/** `error` as the failure map says, when it is a WorkerTaskFailure the map names; else `error`. */
function mapFailure(error: unknown, failures: TaskFailures, timeoutMs: number): unknown {
  if (!(error instanceof WorkerTaskFailure)) return error
  const mapped = failures[error.reason]
  if (!mapped) return error
  const detail = typeof mapped.detail === 'string' ? mapped.detail : mapped.detail(timeoutMs)
  return new AppError(mapped.code, detail, {}, error)
}

/** The task that holds a thread while runOnSlot's work runs elsewhere (slot-task.ts). */
const HOLD_SLOT = poolTask<null, void>(new URL('./slot-task.ts', import.meta.url), 'holdSlot')

/** Why a task failed outside its own code. */
export type WorkerTaskFailureReason = 'timeout' | 'out_of_memory' | 'aborted' | 'crashed'

/** A task that did not finish: timed out, ran out of heap, was aborted or lost its thread. */
export class WorkerTaskFailure extends Error {
  constructor(
    readonly reason: WorkerTaskFailureReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
    this.name = 'WorkerTaskFailure'
  }
}

export interface WorkerPoolOptions {
  /** Threads running at once; default: available cores. */
  threads?: number
  /** Old-generation heap cap per thread in MiB (default 1024). */
  heapMb?: number
  /** Idle time in ms before a spare thread exits (default 30 s). */
  idleTimeoutMs?: number
  /**
   * Wall-clock limit in ms of a task that sets no `timeoutMs` of its own (default 10 minutes), so
   * that no task (a pathological input, a runaway loop) holds a thread for ever.
   */
  taskTimeoutMs?: number
  /**
   * MiB of heap plus external memory (ArrayBuffers, WASM) a thread may hold after a task; past it
   * the thread is retired and replaced (default DEFAULT_RECYCLE_ABOVE_MB).
   */
  recycleAboveMb?: number
}

export interface TaskRunOptions {
  /** Aborts the task (queued or running; a running task's thread is terminated and replaced). */
  signal?: AbortSignal
  /**
   * The organisation the task works for, whose fair share of the pool it takes (FairScheduler);
   * default: the share of the work in progress (withPoolShare: a job's organisation), else the
   * server's own.
   */
  orgId?: string
  /**
   * Wall-clock limit in ms of the task's run, from its start on a thread (queue time excluded);
   * default: the pool's `taskTimeoutMs`.
   */
  timeoutMs?: number
  /** Receives the task's progress reports. */
  onProgress?: (fraction: number, message: string) => void
}

/** Counters exposed at /readyz. */
export interface WorkerPoolStats {
  threads: number
  queued: number
  running: number
  completed: number
  failed: number
  /** Threads retired for holding more than `recycleAboveMb` after a task. */
  recycled: number
}

/** WorkerPoolOptions.taskTimeoutMs when not given: 10 minutes. */
const DEFAULT_TASK_TIMEOUT_MS = 10 * 60_000

/**
 * WorkerPoolOptions.recycleAboveMb when not given: 256 MiB. A thread with the analyzer's and the
 * embedder's models loaded holds well under 200 MiB (measured on the bench); a bomb's leftovers
 * (a 60 MiB DOCX text: 290 MiB; a lying ZIP's buffers: 470 MiB) hold more.
 */
const DEFAULT_RECYCLE_ABOVE_MB = 256

/**
 * Threads past WorkerPoolOptions.threads, each only for an organisation running no task
 * (FairScheduler's spare): 1, so a firm's upload is read at once while another firm's pages of OCR
 * hold every slot (issue 41), at the cost of one more thread's heap (heapMb) at most.
 */
const SPARE_THREADS = 1

const BOOTSTRAP = fileURLToPath(new URL('./pool-worker.cjs', import.meta.url))

export class WorkerPool {
  private readonly piscina: Piscina<PoolTaskMessage, PoolTaskOutcome>
  /** Who gets the next free thread (piscina is given a task only once it has one). */
  private readonly scheduler: FairScheduler
  private inFlight = 0
  private closed = false
  private completed = 0
  private failed = 0
  private recycled = 0
  /** Ids of threads that asked to be retired: given no task, terminated once their task is over. */
  private readonly retiring = new Set<number>()
  private readonly taskTimeoutMs: number
  private readonly retireAboveBytes: number
  /**
   * Tasks (and slots, see runOnSlot) that run at once; one more may run for an organisation that
   * runs none (FairScheduler's spare slot).
   */
  readonly maxThreads: number

  constructor(options: WorkerPoolOptions = {}) {
    this.taskTimeoutMs = options.taskTimeoutMs ?? DEFAULT_TASK_TIMEOUT_MS
    this.retireAboveBytes = (options.recycleAboveMb ?? DEFAULT_RECYCLE_ABOVE_MB) * 1024 * 1024
    const threads = Math.max(1, options.threads ?? os.availableParallelism())
    this.maxThreads = threads
    this.scheduler = new FairScheduler(threads, SPARE_THREADS)
    this.piscina = new Piscina({
      filename: BOOTSTRAP,
      // At least one thread: piscina 5.3 leaves queued tasks waiting forever when the last thread
      // is terminated by an abort and minThreads is 0 (seen here; one thread is always respawned).
      minThreads: 1,
      maxThreads: threads + SPARE_THREADS,
      idleTimeout: options.idleTimeoutMs ?? 30_000,
      resourceLimits: threadResourceLimits(options.heapMb ?? 1024),
      // Piscina's own balancer, less the threads being retired. Every task here carries an
      // AbortSignal, so piscina only ever gives a task to an idle thread.
      loadBalancer: (_task, workers) =>
        workers.find(
          (w) => w.currentUsage === 0 && !w.terminating && !w.destroyed && !this.retiring.has(w.id),
        ) ?? null,
    })
    // A dying thread is reported through the task it was running; this keeps the emitter quiet.
    this.piscina.on('error', () => {})
    this.piscina.on('workerDestroy', (worker: { id: number }) => this.retiring.delete(worker.id))
  }

  /** Runs `task` on a pool thread. See the module docs for the errors it rejects with. */
  run<I, O>(task: PoolTask<I, O>, input: I, options: TaskRunOptions = {}): Promise<O> {
    return this.execute(task, input, options)
  }

  /**
   * Runs `work` (e.g. a child process: ffmpeg, a speech recogniser) while it holds one of the
   * pool's threads, so that work outside the threads shares their concurrency cap, queue, timeout
   * and counters. `work` starts once a thread is free and gets a signal that aborts when the
   * caller aborts or the task times out, with that reason (a WorkerTaskFailure for a timeout); it
   * should then stop its process and reject. Resolves or rejects as `work` does; rejects with the
   * caller's reason or a WorkerTaskFailure when the slot is lost before the work starts.
   */
  async runOnSlot<T>(
    work: (signal: AbortSignal) => Promise<T>,
    options: Omit<TaskRunOptions, 'onProgress'> & { failures?: TaskFailures } = {},
  ): Promise<T> {
    try {
      return await this.holdSlot(work, options)
    } catch (error) {
      throw mapFailure(error, options.failures ?? {}, options.timeoutMs ?? this.taskTimeoutMs)
    }
  }

  /** runOnSlot before its failure map: the slot held while `work` runs. */
  private async holdSlot<T>(
    work: (signal: AbortSignal) => Promise<T>,
    options: Omit<TaskRunOptions, 'onProgress'>,
  ): Promise<T> {
    const lost = new AbortController()
    const signal = options.signal ? AbortSignal.any([options.signal, lost.signal]) : lost.signal
    let outcome: Promise<T> | undefined
    try {
      await this.execute(HOLD_SLOT, null, options, (release) => {
        // Through a promise, so that work throwing at once still releases the slot.
        outcome = Promise.resolve().then(() => work(signal))
        outcome.then(
          () => release(true),
          () => release(false),
        )
      })
    } catch (error) {
      lost.abort(error)
      // Once the work started, its own end is the answer: its failure (it released the slot),
      // its abort reason after the slot was lost, or its result if it finished just before.
      if (outcome) return await outcome
      throw error
    }
    return outcome as Promise<T>
  }

  private async execute<I, O>(
    task: PoolTask<I, O>,
    input: I,
    options: TaskRunOptions,
    onStarted?: (release: (ok: boolean) => void) => void,
  ): Promise<O> {
    const timeout = new AbortController()
    const signal = options.signal
      ? AbortSignal.any([options.signal, timeout.signal])
      : timeout.signal
    // The thread says when the task starts (after loading its module), so the timeout counts the
    // task's own run time, never its wait in the queue or a thread's start-up.
    const channel = new MessageChannel()
    let timer: NodeJS.Timeout | undefined
    let settled = false
    const timeoutMs = options.timeoutMs ?? this.taskTimeoutMs
    let retiredThread: number | undefined
    channel.port1.on('message', (event: PoolTaskEvent) => {
      if (event.type === 'progress') options.onProgress?.(event.fraction, event.message)
      else if (event.type === 'retire') {
        // Marked before the thread sends its outcome, so piscina gives it no further task.
        this.retiring.add(event.threadId)
        retiredThread = event.threadId
        channel.port1.postMessage({ type: 'retire-ack' } satisfies PoolRetireAck)
      } else if (!settled) {
        timer = setTimeout(() => timeout.abort(), timeoutMs)
        onStarted?.((ok) =>
          channel.port1.postMessage({ type: 'release', ok } satisfies PoolSlotRelease),
        )
      }
    })
    // The port closes itself when the thread closes its end (task over, or thread gone), after
    // delivering every report; closing it here could drop reports still in flight.
    channel.port1.unref()
    this.inFlight += 1
    let release: ReleaseSlot | undefined
    try {
      const message: PoolTaskMessage = {
        module: task.module,
        name: task.name,
        input,
        events: channel.port2,
        retireAboveBytes: this.retireAboveBytes,
      }
      let outcome: Awaited<ReturnType<typeof this.piscina.run>>
      try {
        // A thread of the organisation's fair share first, then piscina's (an idle one is there).
        release = await this.scheduler.acquire(options.orgId ?? currentPoolShare(), signal)
        // A task granted its slot as the pool closes is refused like piscina's queued ones.
        if (this.closed) throw new Error('The worker pool is closed.')
        outcome = await this.piscina.run(message, { signal, transferList: [channel.port2] })
      } catch (error) {
        // Outside the task's code: aborted, timed out, out of memory, or the thread died.
        this.failed += 1
        if (!(error instanceof Error)) throw error
        const failure = this.classify(error, options.signal, timeout.signal)
        throw mapFailure(failure, task.failures, timeoutMs)
      }
      if (outcome.ok) {
        this.completed += 1
        return outcome.value as O
      }
      // The task's own error, counted once and passed on as it was thrown (not a crash).
      this.failed += 1
      const { error } = outcome
      throw AppError.isJson(error) ? AppError.fromJSON(error) : new Error(error.message)
    } finally {
      settled = true
      clearTimeout(timer)
      release?.()
      this.inFlight -= 1
      if (retiredThread !== undefined) void this.retire(retiredThread)
    }
  }

  /**
   * Terminates the thread `id` (idle: its task is over and it gets no other); piscina sees it exit
   * and starts a replacement when fewer than minThreads remain or tasks wait.
   */
  private async retire(id: number): Promise<void> {
    const thread = this.piscina.threads.find((t) => t.threadId === id)
    if (!thread) return
    this.recycled += 1
    await thread.terminate().catch(() => {})
  }

  /** Current counters. */
  stats(): WorkerPoolStats {
    const queued = this.scheduler.queued + this.piscina.queueSize
    return {
      threads: this.piscina.threads.length,
      queued,
      running: Math.max(0, this.inFlight - queued),
      completed: this.completed,
      failed: this.failed,
      recycled: this.recycled,
    }
  }

  /** Stops every thread; queued and running tasks reject. */
  async close(): Promise<void> {
    this.closed = true
    await this.piscina.destroy()
  }

  private classify(error: Error, caller?: AbortSignal, timeout?: AbortSignal): Error {
    if (caller?.aborted) {
      const reason: unknown = caller.reason
      return reason instanceof Error
        ? reason
        : new WorkerTaskFailure('aborted', 'The task was cancelled.', { cause: error })
    }
    if (timeout?.aborted)
      return new WorkerTaskFailure('timeout', 'The task took too long.', { cause: error })
    if ((error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY')
      return new WorkerTaskFailure('out_of_memory', 'The task ran out of memory.', {
        cause: error,
      })
    return new WorkerTaskFailure('crashed', error.message, { cause: error })
  }
}
