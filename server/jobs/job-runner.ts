/**
 * The background job runner (issue 10): durable, tenant-scoped jobs on the `jobs` table, run by
 * handlers that features register per kind. It runs up to `concurrency` jobs at once in this
 * process (the CPU-heavy part of each goes to the shared WorkerPool), claims fairly across
 * organisations (job-store.ts), heartbeats running jobs, recovers jobs interrupted by a crash,
 * retries unexpected failures with exponential backoff up to each job's `maxAttempts`, and stops a
 * cancelled job through the AbortSignal its handler receives.
 *
 * Failure messages stored on a job are user-safe: an AppError's detail, a timeout or memory
 * message, or a generic sentence; internal errors go to the log with the job id only.
 */
import { EventEmitter } from 'node:events'
import { randomUUID } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { Db } from '../db/client'
import type { Principal } from '../db/tenant'
import { AppError } from '../errors/app-error'
import { WorkerTaskFailure } from '../workers/worker-pool'
import { JobWatcher } from './job-watcher'
import {
  claimNextJob,
  finishJob,
  heartbeat,
  purgeFinishedJobs,
  recoverInterruptedJobs,
  saveProgress,
  type ClaimedJob,
  type RunOutcome,
} from './job-store'

/** What a handler gets besides the job: its cancel signal and a progress reporter. */
export interface JobContext {
  signal: AbortSignal
  /** `fraction` in 0..1, `message` short and user-facing. */
  progress(fraction: number, message: string): void
}

/** The work of one job kind. The returned value is stored as the job's `result` (JSON). */
export interface JobHandler {
  kind: string
  run(job: ClaimedJob, context: JobContext): Promise<unknown>
}

/**
 * The principal a handler acts as: the job's organisation and creator with member rights (the
 * least role that may queue a job), as `actorType` ('user' for work a person asked for, 'system'
 * for work the server queued itself), so the handler's writes stay under the tenant's RLS.
 */
export function jobPrincipal(
  job: Pick<ClaimedJob, 'orgId' | 'createdBy'>,
  actorType: Principal['actorType'] = 'user',
): Principal {
  return { orgId: job.orgId, userId: job.createdBy, role: 'member', actorType }
}

/** A change to a job, for the event streams of this process (see JobRunner.follow). */
export interface JobEvent {
  jobId: string
  orgId: string
}

export interface JobRunnerOptions {
  db: Db
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>
  /** Jobs running at once in this process (default 2). */
  concurrency?: number
  /** Running jobs per organisation across all processes (default: concurrency). */
  perOrgCap?: number
  /** How often to look for work queued by other processes, heartbeat and reap (ms, default 1000). */
  pollMs?: number
  /** A running job whose heartbeat is older than this is taken as interrupted (s, default 30). */
  leaseSeconds?: number
  /** This is the only process using the database (PGlite): recover every running job at start. */
  exclusive?: boolean
  /** Days a finished job's record is kept before it is deleted (default 30; see purgeFinishedJobs). */
  retentionDays?: number
  /** How often followed jobs are looked at for changes made outside this runner (ms, default 1000). */
  watchMs?: number
}

/** How often the runner deletes expired job records (ms): once an hour, and once at start. */
const PURGE_EVERY_MS = 60 * 60 * 1000

const GENERIC_FAILURE =
  'The job failed. Try again, or ask an administrator to check the server log.'
const PROGRESS_SAVE_MS = 250

export class JobRunner {
  readonly instanceId = randomUUID()
  private readonly handlers = new Map<string, JobHandler>()
  private readonly running = new Map<string, AbortController>()
  private readonly events = new EventEmitter().setMaxListeners(0)
  private readonly db: Db
  private readonly log: JobRunnerOptions['log']
  private readonly concurrency: number
  private readonly perOrgCap: number
  private readonly pollMs: number
  private readonly leaseSeconds: number
  private readonly exclusive: boolean
  private readonly retentionDays: number
  private lastPurgeAt = 0
  private timer: NodeJS.Timeout | undefined
  private filling: Promise<void> | null = null
  private refill = false
  private started = false
  private readonly settledRuns = new Set<Promise<void>>()
  private readonly watcher: JobWatcher

  constructor(options: JobRunnerOptions) {
    this.db = options.db
    this.log = options.log
    this.concurrency = Math.max(1, options.concurrency ?? 2)
    this.perOrgCap = Math.max(1, options.perOrgCap ?? this.concurrency)
    this.pollMs = options.pollMs ?? 1000
    this.leaseSeconds = options.leaseSeconds ?? 30
    this.exclusive = options.exclusive ?? false
    this.retentionDays = options.retentionDays ?? 30
    this.watcher = new JobWatcher({
      db: this.db,
      log: this.log,
      intervalMs: options.watchMs ?? 1000,
      // A job running here is announced by this runner at each change it makes; the only outside
      // write to it, a cancellation, shows once this runner aborts it.
      onChange: (jobId) => {
        if (!this.running.has(jobId)) this.emit(jobId)
      },
    })
  }

  /** Registers the handler of a job kind; a kind may have one handler. */
  register(handler: JobHandler): void {
    if (this.handlers.has(handler.kind))
      throw new Error(`Job kind ${handler.kind} registered twice`)
    this.handlers.set(handler.kind, handler)
  }

  /** Recovers interrupted jobs, then starts taking work. */
  async start(): Promise<void> {
    if (this.started) return
    this.started = true
    const recovered = await recoverInterruptedJobs(
      this.db,
      this.instanceId,
      this.leaseSeconds,
      this.exclusive,
    )
    if (recovered > 0) this.log.warn({ recovered }, 'recovered jobs interrupted by a stop')
    this.timer = setInterval(() => void this.tick(), this.pollMs)
    this.timer.unref()
    this.wake()
  }

  /** Stops taking work, aborts running jobs (they are retried by the next start) and waits. */
  async stop(): Promise<void> {
    this.started = false
    clearInterval(this.timer)
    this.watcher.stop()
    for (const controller of this.running.values()) controller.abort(new ShutdownError())
    await this.filling
    await Promise.allSettled([...this.settledRuns])
  }

  /** Looks for work now (call after queueing a job in this process). */
  wake(): void {
    if (!this.started) return
    if (this.filling) {
      this.refill = true
      return
    }
    this.filling = this.fill().finally(() => {
      this.filling = null
      if (this.refill) {
        this.refill = false
        this.wake()
      }
    })
  }

  /** Aborts a job running in this process (after its cancellation was recorded). */
  abortLocal(jobId: string): void {
    this.running.get(jobId)?.abort(new CancelledError())
  }

  /** Announces a change of a job to this process's followers of it (server-sent events). */
  notify(event: JobEvent): void {
    this.emit(event.jobId)
  }

  /**
   * Calls `listener` after each change of job `jobId`: changes this runner makes or is told of
   * (notify) at once, changes made elsewhere (another process, a direct write) within `watchMs`
   * through the process-wide JobWatcher. Returns the function that stops following; call it
   * when the follower goes, or the job stays watched.
   */
  follow(jobId: string, listener: () => void): () => void {
    const channel = `job:${jobId}`
    this.events.on(channel, listener)
    const unwatch = this.watcher.watch(jobId)
    return () => {
      this.events.off(channel, listener)
      unwatch()
    }
  }

  private emit(jobId: string): void {
    this.events.emit(`job:${jobId}`)
  }

  /** Jobs running in this process. */
  get runningCount(): number {
    return this.running.size
  }

  private async fill(): Promise<void> {
    while (this.started && this.running.size < this.concurrency) {
      let job: ClaimedJob | null
      try {
        job = await claimNextJob(this.db, this.instanceId, this.perOrgCap)
      } catch (error) {
        this.log.error({ err: error }, 'claiming a job failed')
        return
      }
      if (!job) return
      const run = this.execute(job)
      this.settledRuns.add(run)
      void run.finally(() => this.settledRuns.delete(run))
    }
  }

  private async execute(job: ClaimedJob): Promise<void> {
    const controller = new AbortController()
    this.running.set(job.id, controller)
    this.notify({ jobId: job.id, orgId: job.orgId })
    let lastSaved = 0
    const context: JobContext = {
      signal: controller.signal,
      progress: (fraction, message) => {
        const now = Date.now()
        if (now - lastSaved < PROGRESS_SAVE_MS && fraction < 1) return
        lastSaved = now
        const clamped = Math.min(1, Math.max(0, fraction))
        void saveProgress(this.db, job.id, clamped, message.slice(0, 200))
          .then(() => this.notify({ jobId: job.id, orgId: job.orgId }))
          .catch((err: unknown) => this.log.warn({ err, jobId: job.id }, 'saving progress failed'))
      },
    }
    let outcome: RunOutcome
    try {
      const handler = this.handlers.get(job.kind)
      if (!handler) throw new AppError('unknown_job_kind', `No handler for ${job.kind} jobs.`)
      outcome = { status: 'succeeded', result: await handler.run(job, context) }
    } catch (error) {
      outcome = this.outcomeOf(job, error, controller.signal)
    }
    this.running.delete(job.id)
    try {
      await finishJob(this.db, job.id, outcome)
    } catch (error) {
      this.log.error({ err: error, jobId: job.id }, 'recording the end of a job failed')
    }
    this.notify({ jobId: job.id, orgId: job.orgId })
    this.wake()
  }

  private outcomeOf(job: ClaimedJob, error: unknown, signal: AbortSignal): RunOutcome {
    const reason: unknown = signal.aborted ? signal.reason : undefined
    if (reason instanceof CancelledError) return { status: 'cancelled', error: null }
    if (reason instanceof ShutdownError)
      return { status: 'queued', error: 'Interrupted by a server stop.', retryAfterSeconds: 0 }
    if (error instanceof AppError) {
      if (error.status >= 500) this.log.error({ err: error, jobId: job.id }, 'job failed')
      return { status: 'failed', error: error.detail }
    }
    if (error instanceof WorkerTaskFailure && error.reason !== 'crashed') {
      const message =
        error.reason === 'timeout'
          ? 'The job took longer than allowed and was stopped.'
          : 'The job needed more memory than allowed and was stopped.'
      return { status: 'failed', error: message }
    }
    this.log.error({ err: error, jobId: job.id, kind: job.kind }, 'job failed unexpectedly')
    if (job.attempts < job.maxAttempts) {
      return {
        status: 'queued',
        error: GENERIC_FAILURE,
        retryAfterSeconds: Math.min(300, 2 ** job.attempts),
      }
    }
    return { status: 'failed', error: GENERIC_FAILURE }
  }

  /** Deletes expired job records at start and then once an hour (see purgeFinishedJobs). */
  private async purgeWhenDue(): Promise<void> {
    if (Date.now() - this.lastPurgeAt < PURGE_EVERY_MS) return
    this.lastPurgeAt = Date.now()
    const purged = await purgeFinishedJobs(this.db, this.retentionDays)
    if (purged > 0)
      this.log.info({ purged, retentionDays: this.retentionDays }, 'expired job records deleted')
  }

  private async tick(): Promise<void> {
    try {
      const cancelled = await heartbeat(this.db, [...this.running.keys()])
      for (const id of cancelled) this.abortLocal(id)
      await recoverInterruptedJobs(this.db, this.instanceId, this.leaseSeconds, false)
      await this.purgeWhenDue()
    } catch (error) {
      this.log.warn({ err: error }, 'job heartbeat failed')
    }
    this.wake()
  }
}

/** Abort reason of a job whose cancellation was requested. */
export class CancelledError extends Error {
  constructor() {
    super('The job was cancelled.')
    this.name = 'CancelledError'
  }
}

/** Abort reason of a job stopped because the server is shutting down. */
export class ShutdownError extends Error {
  constructor() {
    super('The server is shutting down.')
    this.name = 'ShutdownError'
  }
}
