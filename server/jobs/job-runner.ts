/**
 * The background job runner (issue 10): durable, tenant-scoped jobs on the `jobs` table, run by
 * the handlers of a typed catalogue of job kinds (define-job.ts, bound once at composition). It
 * runs up to `concurrency` jobs at once in this process, and one more for an organisation running
 * none (SPARE_JOBS); the CPU-heavy part of each goes to the shared WorkerPool, in the job's
 * organisation's fair share of it (withPoolShare). It claims fairly across organisations and only
 * kinds it has handlers for (job-store.ts), heartbeats running jobs, recovers jobs interrupted by
 * a crash, retries unexpected failures with exponential backoff up to each job's `maxAttempts`,
 * and stops a cancelled job through the AbortSignal its handler receives. `enqueue` is the one way
 * to queue a job: typed by kind, checked by the kind's input schema. The runner wakes when a job
 * is queued anywhere, as the `jobs` table's insert notification arrives: at the commit of the
 * transaction that queued it, never before (decision 0119); the poll is the fallback.
 *
 * Failure messages stored on a job are user-safe: an AppError's detail and code, or a generic
 * sentence with `internal_error`; internal errors go to the log with the job id only.
 */
import { randomUUID } from 'node:crypto'
import { hostname } from 'node:os'
import type { FastifyBaseLogger } from 'fastify'
import type { z } from 'zod'
import type { Db } from '../db/client'
import type { Principal, Tx } from '../db/tenant'
import { AppError } from '../errors/app-error'
import type {
  JobContext,
  JobContract,
  JobContracts,
  JobHandler,
  JobHandlers,
  JobInput,
  JobKind,
  JobOf,
} from './define-job-contract'
import { insertJob, type JobOfKind } from './job-service'
import { runWithLogContext } from '../ops/log-context'
import { withPoolShare } from '../workers/pool-share'
import type { ChangeFeed } from '../realtime/change-feed'
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

export type { JobContext } from './define-job-contract'

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

export interface JobRunnerOptions<C extends JobContracts = JobContracts> {
  db: Db
  /** Every job kind this process queues and runs, as contracts (server/job-catalogue.ts). */
  catalogue: C
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>
  /**
   * Jobs running at once in this process (default 2); one more may run for an organisation with
   * no running job (SPARE_JOBS).
   */
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
  /**
   * The database's change feed (server/realtime/change-feed.ts). A job inserted anywhere (this
   * process's enqueue, another process's, the documents trigger's indexing job) wakes the runner
   * as the `jobs` table's trigger announces it, which PostgreSQL and PGlite deliver at the commit
   * of the inserting transaction. Without it (tests of the runner alone, the lexdesk command),
   * `enqueue` wakes the runner itself. (A job's followers hear of its changes from the same
   * trigger through the realtime hub, decision 0125, not from the runner.)
   */
  changes?: Pick<ChangeFeed, 'subscribe'>
  /**
   * Told of each run's end: its kind, how it was recorded (succeeded, failed, cancelled, or
   * queued again: a retry or a hand-back at a stop) and its seconds (the metrics, ops/metrics.ts).
   */
  onRunEnded?: (kind: string, outcome: string, seconds: number) => void
}

/**
 * Jobs a runner runs past its concurrency, each only for an organisation running no job: 1, so a
 * firm's indexing or analysis starts while another firm's long jobs (a 2,000-page OCR: an hour)
 * hold every slot, as the worker pool's spare thread does for its tasks (decision 0107). Their
 * CPU-heavy work still goes through the pool, whose cap holds.
 */
const SPARE_JOBS = 1

/** How often the runner deletes expired job records (ms): once an hour, and once at start. */
const PURGE_EVERY_MS = 60 * 60 * 1000

const GENERIC_FAILURE =
  'The job failed. Try again, or ask an administrator to check the server log.'
const PROGRESS_SAVE_MS = 250
/** A job stopped by a server stop: queued again at once, its lease released (finishJob). */
const HANDED_BACK: RunOutcome = {
  status: 'queued',
  error: 'Interrupted by a server stop.',
  retryAfterSeconds: 0,
}

/**
 * Periodic work the runner does from its heartbeat, in every process (the composition's: e.g.
 * queueing each organisation's daily retention run, decision 0148): `run` first `firstAfterMs`
 * after the start, then every `everyMs`. A failure is logged and tried again at the next period;
 * the work must be safe to do in several processes at once (it queues jobs under a lock).
 */
export interface RecurringTask {
  name: string
  everyMs: number
  firstAfterMs: number
  run(): Promise<void>
}

/** A kind's contract with the handler bound to it. */
type BoundJob = {
  definition: JobContract
  handler: JobHandler<unknown, unknown>
}

export class JobRunner<C extends JobContracts = JobContracts> {
  /**
   * What `jobs.locked_by` records of this runner: the host and process id first, so an operator
   * (or `npm run test:server`) can tell which process holds a running job, then a UUID.
   */
  readonly instanceId = `${hostname()}/${process.pid}/${randomUUID()}`
  private readonly catalogue: C
  private readonly handlers = new Map<string, BoundJob>()
  private readonly running = new Map<string, AbortController>()
  private readonly db: Db
  private readonly log: JobRunnerOptions['log']
  private readonly concurrency: number
  private readonly perOrgCap: number
  private readonly pollMs: number
  private readonly leaseSeconds: number
  private readonly exclusive: boolean
  private readonly retentionDays: number
  private lastPurgeAt = 0
  private readonly recurring: { task: RecurringTask; nextAt: number }[] = []
  private timer: NodeJS.Timeout | undefined
  private filling: Promise<void> | null = null
  private refill = false
  private started = false
  private readonly settledRuns = new Set<Promise<void>>()
  /** Jobs handed back by stop() while their handler still ran: their outcome is not recorded. */
  private readonly handedBack = new Set<string>()
  private readonly unsubscribeChanges: () => void
  /** The change feed wakes this runner when a job is queued (see JobRunnerOptions.changes). */
  private readonly wokenByInserts: boolean
  private readonly onRunEnded: NonNullable<JobRunnerOptions['onRunEnded']>

  constructor(options: JobRunnerOptions<C>) {
    this.db = options.db
    this.catalogue = options.catalogue
    this.log = options.log
    this.concurrency = Math.max(1, options.concurrency ?? 2)
    this.perOrgCap = Math.max(1, options.perOrgCap ?? this.concurrency)
    this.pollMs = options.pollMs ?? 1000
    this.leaseSeconds = options.leaseSeconds ?? 30
    this.exclusive = options.exclusive ?? false
    this.retentionDays = options.retentionDays ?? 30
    this.onRunEnded = options.onRunEnded ?? (() => {})
    this.wokenByInserts = options.changes !== undefined
    this.unsubscribeChanges =
      options.changes?.subscribe('public.jobs', (change) => {
        if (change.op === 'insert') this.wake()
      }) ?? (() => {})
  }

  /**
   * Binds each kind of the catalogue to its handler in `handlers` (one per kind, by kind: the
   * composition's job-handlers.ts), once, before `start`: from then on this process claims and
   * runs jobs of those kinds, and only those. Throws on a second bind, a kind listed twice or a
   * kind without a handler.
   */
  bind(handlers: JobHandlers<C>): void {
    if (this.handlers.size > 0) throw new Error('Job catalogue bound twice')
    const byKind = handlers as Readonly<Record<string, JobHandler<unknown, unknown> | undefined>>
    for (const definition of this.catalogue) {
      if (this.handlers.has(definition.kind))
        throw new Error(`Job kind ${definition.kind} defined twice`)
      const handler = byKind[definition.kind]
      if (!handler) throw new Error(`Job kind ${definition.kind} has no handler`)
      this.handlers.set(definition.kind, { definition, handler })
    }
  }

  /**
   * Queues a job of `kind` inside the caller's tenant transaction `tx` (audited), after checking
   * `input` against the kind's schema (a wrong input is a 500 `job_input_invalid`: the server's
   * own code built it). Resolves to the job, typed by its kind. The runner is woken when `tx`
   * commits, by the `jobs` table's insert notification (`changes`): a wake here would claim
   * before the commit and, on PostgreSQL, miss the job until the next poll. A runner without a
   * change feed wakes itself here (on PGlite its claim waits behind `tx`).
   */
  async enqueue<K extends JobKind<C>>(
    tx: Tx,
    principal: Principal,
    kind: K,
    input: JobInput<C, K>,
    options: { subjectId?: string } = {},
  ): Promise<JobOfKind<JobOf<C, K>>> {
    const definition = this.catalogue.find((d) => d.kind === kind)
    if (!definition) throw new AppError('unknown_job_kind', `No ${kind} jobs on this server.`)
    const parsed = definition.input.safeParse(input)
    if (!parsed.success) throw invalidInput(kind, parsed.error)
    const job = await insertJob(tx, principal, {
      kind,
      input: parsed.data,
      subjectId: options.subjectId,
      maxAttempts: definition.maxAttempts,
      background: definition.background,
    })
    if (!this.wokenByInserts) this.wake()
    return job as JobOfKind<JobOf<C, K>>
  }

  /** Adds periodic work done from the heartbeat while the runner runs (see RecurringTask). */
  every(task: RecurringTask): void {
    this.recurring.push({ task, nextAt: Date.now() + task.firstAfterMs })
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

  /**
   * Claims nothing more; running jobs go on, still heartbeated (the first step of a graceful stop,
   * server/ops/lifecycle.ts).
   */
  drain(): void {
    this.started = false
  }

  /**
   * Stops taking work, lets running jobs finish for up to `graceMs` (default 0), then aborts the
   * rest and waits: an aborted job is handed back (queued again at once, its lease released:
   * `locked_by` cleared), so another process, or the next start, takes it without waiting for
   * the lease to run out.
   */
  async stop(graceMs = 0): Promise<void> {
    this.started = false
    if (graceMs > 0 && this.settledRuns.size > 0) {
      let timer: NodeJS.Timeout | undefined
      await Promise.race([
        Promise.allSettled([...this.settledRuns]),
        new Promise((resolve) => (timer = setTimeout(resolve, graceMs))),
      ])
      clearTimeout(timer)
    }
    clearInterval(this.timer)
    this.unsubscribeChanges()
    // A claim in flight may still start one job: wait for it before aborting, or that job's
    // handler would run on unaborted (and a stop without grace wait for it to end by itself).
    await this.filling
    for (const controller of this.running.values()) controller.abort(new ShutdownError())
    if (graceMs <= 0) {
      await Promise.allSettled([...this.settledRuns])
      return
    }
    // A handler deaf to its signal (work on a worker thread) must not outlast the stop's budget:
    // after a second its job is handed back here, and its late outcome is never recorded.
    let timer: NodeJS.Timeout | undefined
    await Promise.race([
      Promise.allSettled([...this.settledRuns]),
      new Promise((resolve) => (timer = setTimeout(resolve, 1000))),
    ])
    clearTimeout(timer)
    for (const jobId of [...this.running.keys()]) {
      this.handedBack.add(jobId)
      this.running.delete(jobId)
      await finishJob(this.db, jobId, HANDED_BACK).catch((err: unknown) =>
        this.log.error({ err, jobId }, 'handing back a job failed'),
      )
    }
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

  /** Jobs running in this process. */
  get runningCount(): number {
    return this.running.size
  }

  private async fill(): Promise<void> {
    while (this.started && this.running.size < this.concurrency + SPARE_JOBS) {
      let job: ClaimedJob | null
      try {
        job = await claimNextJob(
          this.db,
          this.instanceId,
          this.perOrgCap,
          [...this.handlers.keys()],
          this.running.size >= this.concurrency,
        )
      } catch (error) {
        this.log.error({ err: error }, 'claiming a job failed')
        return
      }
      if (!job) return
      // Its own context, not the one of the request whose enqueue woke the runner; its work on
      // the worker pool (an engine's, deep in the handler) in its organisation's fair share.
      const run = runWithLogContext({ reqId: job.requestId ?? null, jobId: job.id }, () =>
        withPoolShare(job.orgId, () => this.execute(job)),
      )
      this.settledRuns.add(run)
      void run.finally(() => this.settledRuns.delete(run))
    }
  }

  private async execute(job: ClaimedJob): Promise<void> {
    const controller = new AbortController()
    const startedAt = performance.now()
    this.log.info({ kind: job.kind, attempt: job.attempts }, 'job run started')
    this.running.set(job.id, controller)
    let lastSaved = 0
    // Progress writes run one after another and the run's end waits for the last: on a pooled
    // PostgreSQL a write still in flight could otherwise land after finishJob (and, finding the
    // job no longer running, drop the final message) or overtake a later one.
    let progressWrites: Promise<void> = Promise.resolve()
    const context: JobContext = {
      signal: controller.signal,
      progress: (fraction, message) => {
        const now = Date.now()
        if (now - lastSaved < PROGRESS_SAVE_MS && fraction < 1) return
        lastSaved = now
        const clamped = Math.min(1, Math.max(0, fraction))
        progressWrites = progressWrites
          .then(async () => {
            await saveProgress(this.db, job.id, clamped, message.slice(0, 200))
          })
          .catch((err: unknown) => this.log.warn({ err, jobId: job.id }, 'saving progress failed'))
      },
    }
    let outcome: RunOutcome
    try {
      const bound = this.handlers.get(job.kind)
      if (!bound) throw new AppError('unknown_job_kind', `No handler for ${job.kind} jobs.`)
      const input = bound.definition.input.safeParse(job.input)
      if (!input.success) throw invalidInput(job.kind, input.error)
      const value = await bound.handler.run({ ...job, input: input.data }, context)
      outcome = { status: 'succeeded', result: bound.definition.result.parse(value) }
    } catch (error) {
      outcome = this.outcomeOf(job, error, controller.signal)
    }
    await progressWrites
    if (this.handedBack.has(job.id)) return
    this.running.delete(job.id)
    const seconds = (performance.now() - startedAt) / 1000
    this.onRunEnded(job.kind, outcome.status, seconds)
    this.log.info({ kind: job.kind, outcome: outcome.status, seconds }, 'job run ended')
    try {
      await finishJob(this.db, job.id, outcome)
    } catch (error) {
      this.log.error({ err: error, jobId: job.id }, 'recording the end of a job failed')
    }
    this.wake()
  }

  private outcomeOf(job: ClaimedJob, error: unknown, signal: AbortSignal): RunOutcome {
    const reason: unknown = signal.aborted ? signal.reason : undefined
    if (reason instanceof CancelledError) return { status: 'cancelled', error: null, code: null }
    if (reason instanceof ShutdownError) return HANDED_BACK
    if (error instanceof AppError) {
      if (error.status >= 500) this.log.error({ err: error, jobId: job.id }, 'job failed')
      return { status: 'failed', error: error.detail, code: error.code }
    }
    this.log.error({ err: error, jobId: job.id, kind: job.kind }, 'job failed unexpectedly')
    if (!endsForGood(job, error, signal)) {
      return {
        status: 'queued',
        error: GENERIC_FAILURE,
        retryAfterSeconds: Math.min(300, 2 ** job.attempts),
      }
    }
    return { status: 'failed', error: GENERIC_FAILURE, code: 'internal_error' }
  }

  /** Deletes expired job records at start and then once an hour (see purgeFinishedJobs). */
  private async purgeWhenDue(): Promise<void> {
    if (Date.now() - this.lastPurgeAt < PURGE_EVERY_MS) return
    this.lastPurgeAt = Date.now()
    const purged = await purgeFinishedJobs(this.db, this.retentionDays)
    if (purged > 0)
      this.log.info({ purged, retentionDays: this.retentionDays }, 'expired job records deleted')
  }

  /** Runs each recurring task whose time has come (one at a time, never two runs of one). */
  private async runRecurringWhenDue(): Promise<void> {
    for (const entry of this.recurring) {
      if (Date.now() < entry.nextAt) continue
      entry.nextAt = Date.now() + entry.task.everyMs
      try {
        await entry.task.run()
      } catch (error) {
        this.log.error({ err: error, task: entry.task.name }, 'a recurring task failed')
      }
    }
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
    if (this.started) await this.runRecurringWhenDue()
    this.wake()
  }
}

/**
 * Whether a run of `job` that threw `error` (its run's `signal` as given to the handler) ends the
 * job for good, as JobRunner records it: cancelled, or failed by an AppError or on its last
 * attempt. False when the server's stop hands it back or an unexpected failure is retried. For a
 * handler that must tidy up only once nothing will run the job again.
 */
export function endsForGood(
  job: Pick<ClaimedJob, 'attempts' | 'maxAttempts'>,
  error: unknown,
  signal: AbortSignal,
): boolean {
  const reason: unknown = signal.aborted ? signal.reason : undefined
  if (reason instanceof ShutdownError) return false
  if (reason instanceof CancelledError || error instanceof AppError) return true
  return job.attempts >= job.maxAttempts
}

/** The 500 problem of a job input its kind's schema refuses: a bug of the code that queued it. */
function invalidInput(kind: string, error: z.ZodError): AppError {
  return new AppError(
    'job_input_invalid',
    `The server queued a ${kind} job with an input it cannot run. Ask an administrator to check the server log.`,
    {},
    error,
  )
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
