/**
 * Tenant-facing job operations, under the caller's RLS: insert a job row (for JobRunner.enqueue,
 * the typed way features queue jobs), read, list a subject's jobs, request cancellation.
 * The JobRunner (job-runner.ts) does the work.
 */
import { currentLogContext } from '../ops/log-context'
import { and, desc, eq, inArray, type SQL } from 'drizzle-orm'
import { z } from 'zod'
import type { Db } from '../db/client'
import { jobs } from '../db/schema'
import { withTenant, type Principal, type Tx } from '../db/tenant'
import { readPage } from '../lists/list-kit'
import { AppError, notFound } from '../errors/app-error'
import { recordAudit } from '../audit/record-audit'
import { assertCreatorOrAdmin } from '../db/assert-creator-or-admin'
import { ERROR_CODES, isErrorCode } from '../errors/error-codes'
import type { JobContract } from './define-job-contract'
import { jobAppId } from './job-app-id'

export const JobStatus = z.enum(['queued', 'running', 'succeeded', 'failed', 'cancelled'])
export type JobStatus = z.infer<typeof JobStatus>

/**
 * The fields every job has in the API; `kind` and `result` are added per kind by the catalogue's
 * Job schema (server/job-schema.ts), a union discriminated by `kind`.
 */
export const JobFields = z.object({
  id: z.string().uuid(),
  status: JobStatus,
  progress: z.number().min(0).max(1),
  message: z.string().nullable(),
  error: z.string().nullable().describe('User-safe failure message'),
  errorCode: z
    .enum(ERROR_CODES)
    .nullable()
    .describe('Code of the failure, from the closed list of problem codes; null unless failed'),
  subjectId: z.string().nullable(),
  attempts: z.number().int(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
})

/** A job as the server handles it: any kind, any result (the API narrows both by kind). */
export type Job = z.infer<typeof JobFields> & { kind: string; result: unknown }

/**
 * A job of contract `T`'s kind, as the API shows it: its `kind` that literal, its `result` that
 * contract's result (null until it succeeds). What `enqueue` returns and a route's 202 sends.
 */
export type JobOfKind<T extends JobContract> = Omit<Job, 'kind' | 'result'> & {
  kind: T['kind']
  result: z.output<T['result']> | null
}

type JobRow = typeof jobs.$inferSelect

/**
 * The condition on `jobs` keeping the jobs `principal` may see by its app: an app-bound
 * credential sees only its app's jobs (their subject's app, job-app-id.ts), not another app's
 * nor the organisation's, as over the realtime channel (decision 0125); undefined for a
 * principal of the whole organisation, whose every job RLS already confines.
 */
function jobsInSight(principal: Principal): SQL | undefined {
  return principal.appId ? eq(jobAppId, principal.appId) : undefined
}

/**
 * `job` as a job of `contract`'s kind, for an answer typed by that kind (a 202 that finds the job
 * already running). Throws an Error when the kind differs: the caller selected the wrong row.
 * Its result is not parsed here: the route's response schema checks it as it serialises.
 */
export function asJobOf<T extends JobContract>(contract: T, job: Job): JobOfKind<T> {
  if (job.kind !== contract.kind)
    throw new Error(`Expected a ${contract.kind} job, got a ${job.kind} job`)
  return job as JobOfKind<T>
}

export function toJob(row: JobRow): Job {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status as JobStatus,
    progress: row.progress,
    message: row.message,
    error: row.error,
    errorCode: isErrorCode(row.errorCode) ? row.errorCode : null,
    subjectId: row.subjectId,
    result: row.result ?? null,
    attempts: row.attempts,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
  }
}

export const ACTIVE_STATUSES: JobStatus[] = ['queued', 'running']

/**
 * Inserts a job row inside the caller's tenant transaction `tx` and audits it. Untyped: features
 * queue through JobRunner.enqueue, which checks the input against its kind's schema and wakes the
 * runner; tests insert rows of any kind with it.
 */
export async function insertJob(
  tx: Tx,
  principal: Principal,
  job: {
    kind: string
    subjectId?: string
    input: unknown
    maxAttempts?: number
    /** Work nobody waits on; it yields to foreground jobs (see job-store.ts). */
    background?: boolean
  },
): Promise<Job> {
  const [row] = await tx
    .insert(jobs)
    .values({
      orgId: principal.orgId,
      kind: job.kind,
      subjectId: job.subjectId ?? null,
      input: job.input ?? {},
      maxAttempts: job.maxAttempts ?? 3,
      background: job.background ?? false,
      createdBy: principal.userId,
      // The request being answered, so the job's log lines carry its id (ops/log-context.ts).
      requestId: currentLogContext()?.reqId ?? null,
    })
    .returning()
  if (!row) throw new Error('insert returned no row')
  await recordAudit(tx, principal, 'job.create', { type: 'job', id: row.id }, { kind: job.kind })
  return toJob(row)
}

/** One job of the caller's organisation (of its app, for an app-bound one), or a 404 problem. */
export async function getJob(db: Db, principal: Principal, jobId: string): Promise<Job> {
  const row = await withTenant(db, principal, async (tx) => {
    const [found] = await tx
      .select()
      .from(jobs)
      .where(and(eq(jobs.id, jobId), jobsInSight(principal)))
      .limit(1)
    return found
  })
  if (!row) throw notFound('Job')
  return toJob(row)
}

/**
 * The organisation's jobs (its app's, for an app-bound caller), newest first, optionally of one
 * subject, one kind and/or some statuses.
 */
export async function listJobs(
  db: Db,
  principal: Principal,
  query: { subjectId?: string; kind?: string; status?: JobStatus[]; limit: number; offset: number },
): Promise<{ items: Job[]; total: number }> {
  const where = and(
    jobsInSight(principal),
    query.subjectId ? eq(jobs.subjectId, query.subjectId) : undefined,
    query.kind ? eq(jobs.kind, query.kind) : undefined,
    query.status?.length ? inArray(jobs.status, query.status) : undefined,
  )
  const { rows, total } = await readPage(db, principal, jobs, {
    where,
    orderBy: [desc(jobs.createdAt), desc(jobs.id)],
    limit: query.limit,
    offset: query.offset,
    // The queued and running jobs have partial indexes, which a generic plan cannot use.
    reusePlans: !query.status?.length,
  })
  return { items: rows.map(toJob), total }
}

/**
 * Requests cancellation: a queued job is cancelled at once, a running one is flagged and stopped
 * by its runner. Only the job's creator or an admin may cancel (403 otherwise); a finished job
 * is a 409 problem; a job the caller may not see (another app's, for an app-bound one) a 404.
 * Returns the job as it now stands.
 */
export async function cancelJob(db: Db, principal: Principal, jobId: string): Promise<Job> {
  return withTenant(db, principal, async (tx) => {
    const [row] = await tx
      .select()
      .from(jobs)
      .where(and(eq(jobs.id, jobId), jobsInSight(principal)))
      .limit(1)
      .for('update')
    if (!row) throw notFound('Job')
    assertCreatorOrAdmin(principal, row.createdBy, {
      code: 'forbidden',
      detail: 'Only the person who started this job or an admin can cancel it.',
    })
    if (!ACTIVE_STATUSES.includes(row.status as JobStatus))
      throw new AppError(
        'job_finished',
        `This job has already ${row.status === 'succeeded' ? 'finished' : row.status}.`,
      )
    const queued = row.status === 'queued'
    const [updated] = await tx
      .update(jobs)
      .set({
        cancelRequested: true,
        ...(queued ? { status: 'cancelled', finishedAt: new Date() } : {}),
        updatedAt: new Date(),
      })
      .where(eq(jobs.id, jobId))
      .returning()
    await recordAudit(tx, principal, 'job.cancel', { type: 'job', id: jobId })
    return toJob(updated ?? row)
  })
}

/**
 * Stops every queued or running job about `subjectIds` (a document or recording being deleted),
 * inside the caller's tenant transaction, so its work (indexing a long text, transcribing) does
 * not run on for minutes over something gone: queued jobs end cancelled at once, running ones are
 * marked to cancel and their runner aborts them at its next heartbeat (about a second). The
 * deletion's own audit entry records why. Returns how many jobs were stopped.
 */
export async function cancelSubjectJobs(tx: Tx, subjectIds: string[]): Promise<number> {
  if (subjectIds.length === 0) return 0
  const active = and(inArray(jobs.subjectId, subjectIds), inArray(jobs.status, ACTIVE_STATUSES))
  const now = new Date()
  const queued = await tx
    .update(jobs)
    .set({ cancelRequested: true, status: 'cancelled', finishedAt: now, updatedAt: now })
    .where(and(active, eq(jobs.status, 'queued')))
    .returning({ id: jobs.id })
  const running = await tx
    .update(jobs)
    .set({ cancelRequested: true, updatedAt: now })
    .where(and(active, eq(jobs.status, 'running')))
    .returning({ id: jobs.id })
  return queued.length + running.length
}
