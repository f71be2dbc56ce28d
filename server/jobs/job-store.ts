/**
 * SQL of the job runner: claiming, heartbeats, progress, completion and crash recovery on the
 * `jobs` table. Every statement runs as `lexdesk_worker` (migrations/0004_jobs-rls.sql), the one
 * role allowed to see jobs across organisations; tenant-facing reads and writes use withTenant.
 *
 * Fair claiming: the next job is the oldest queued one of the organisation with the fewest running
 * jobs, ties going to the organisation served least recently, under a per-organisation cap; an
 * advisory transaction lock serialises claimers so the cap holds with several server processes.
 * Background jobs (indexing) come after every queued foreground job and hold at most
 * `backgroundCap(perOrgCap)` of an organisation's slots, so the user's own work always finds one
 * (decision 0028). A claim for a runner's spare slot (`idleOrgsOnly`) takes only a job of an
 * organisation running none, so a firm never waits behind another's hours of work (decision 0107).
 */
import { sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import type { Tx } from '../db/tenant'
import type { ErrorCode } from '../errors/error-codes'

/** A job row as the runner sees it. */
export interface ClaimedJob {
  id: string
  orgId: string
  kind: string
  input: unknown
  attempts: number
  maxAttempts: number
  createdBy: string | null
  /** The request that queued it (jobs.request_id), or null; absent in jobs built by hand. */
  requestId?: string | null
}

/** Runs `fn` in a transaction as the job runner's role. */
export function asWorker<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL ROLE lexdesk_worker`)
    return fn(tx)
  })
}

type Row = Record<string, unknown>
const rowsOf = (result: unknown): Row[] =>
  Array.isArray(result) ? (result as Row[]) : ((result as { rows: Row[] }).rows ?? [])

/** Slots of an organisation that background jobs may hold: all but one, and at least one. */
export const backgroundCap = (perOrgCap: number) => Math.max(1, perOrgCap - 1)

/**
 * Claims the next job fairly (see module docs) among the `kinds` this process has handlers for,
 * or returns null when none may start: a kind another process (a newer version, a different
 * deployment) runs stays queued for it, never failed here. With `idleOrgsOnly`, only a job of an
 * organisation with no running job is claimed.
 */
export async function claimNextJob(
  db: Db,
  instanceId: string,
  perOrgCap: number,
  kinds: readonly string[],
  idleOrgsOnly = false,
): Promise<ClaimedJob | null> {
  if (kinds.length === 0) return null
  const handled = sql.join(
    kinds.map((kind) => sql`${kind}`),
    sql`, `,
  )
  return asWorker(db, async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('lexdesk:jobs:claim'))`)
    const result = await tx.execute(sql`
      WITH running AS (
        SELECT org_id, count(*)::int AS n, (count(*) FILTER (WHERE background))::int AS nb
        FROM jobs WHERE status = 'running' GROUP BY org_id
      ),
      served AS (
        SELECT org_id, max(started_at) AS last FROM jobs
        WHERE started_at > now() - interval '1 hour' GROUP BY org_id
      ),
      candidate AS (
        SELECT j.id FROM jobs j
        LEFT JOIN running r ON r.org_id = j.org_id
        LEFT JOIN served s ON s.org_id = j.org_id
        WHERE j.status = 'queued' AND j.kind IN (${handled}) AND j.run_after <= now()
          AND coalesce(r.n, 0) < ${idleOrgsOnly ? 1 : perOrgCap}
          AND (NOT j.background OR coalesce(r.nb, 0) < ${backgroundCap(perOrgCap)})
        ORDER BY j.background, coalesce(r.n, 0), s.last NULLS FIRST, j.created_at, j.id
        LIMIT 1
        FOR UPDATE OF j SKIP LOCKED
      )
      UPDATE jobs SET status = 'running', attempts = jobs.attempts + 1, started_at = now(),
        heartbeat_at = now(), locked_by = ${instanceId}, progress = 0, message = NULL,
        updated_at = now()
      FROM candidate WHERE jobs.id = candidate.id
      RETURNING jobs.id, jobs.org_id, jobs.kind, jobs.input, jobs.attempts, jobs.max_attempts,
        jobs.created_by, jobs.request_id`)
    const [row] = rowsOf(result)
    if (!row) return null
    return {
      id: row.id as string,
      orgId: row.org_id as string,
      kind: row.kind as string,
      input: row.input,
      attempts: Number(row.attempts),
      maxAttempts: Number(row.max_attempts),
      createdBy: (row.created_by as string | null) ?? null,
      requestId: (row.request_id as string | null) ?? null,
    }
  })
}

/** Stores progress of a running job. */
export function saveProgress(db: Db, jobId: string, progress: number, message: string) {
  return asWorker(db, (tx) =>
    tx.execute(sql`
      UPDATE jobs SET progress = ${progress}, message = ${message}, heartbeat_at = now(),
        updated_at = now()
      WHERE id = ${jobId} AND status = 'running'`),
  )
}

/**
 * Final state of a run. `queued` means "retry after `retryAfterSeconds`"; `code` is the failure's
 * code from the closed list (error-codes.ts), stored as the job's `error_code`.
 */
export type RunOutcome =
  | { status: 'succeeded'; result: unknown }
  | { status: 'failed' | 'cancelled'; error: string | null; code: ErrorCode | null }
  | { status: 'queued'; error: string; retryAfterSeconds: number }

/** Records how a run ended; a job cancelled meanwhile stays cancelled. */
export function finishJob(db: Db, jobId: string, outcome: RunOutcome) {
  const result = outcome.status === 'succeeded' ? JSON.stringify(outcome.result ?? null) : null
  const error = outcome.status === 'succeeded' ? null : outcome.error
  const code = outcome.status === 'failed' || outcome.status === 'cancelled' ? outcome.code : null
  const delay = outcome.status === 'queued' ? outcome.retryAfterSeconds : 0
  const terminal = outcome.status !== 'queued'
  return asWorker(db, (tx) =>
    tx.execute(sql`
      UPDATE jobs SET
        status = CASE WHEN cancel_requested THEN 'cancelled' ELSE ${outcome.status} END,
        result = ${result}::jsonb, error = ${error}, error_code = ${code},
        progress = CASE WHEN ${outcome.status} = 'succeeded' THEN 1 ELSE progress END,
        run_after = now() + make_interval(secs => ${delay}),
        finished_at = CASE WHEN ${terminal} OR cancel_requested THEN now() ELSE NULL END,
        locked_by = NULL, updated_at = now()
      WHERE id = ${jobId}`),
  )
}

/** Heartbeats the jobs this process runs and returns those whose cancellation was requested. */
export async function heartbeat(db: Db, jobIds: string[]): Promise<string[]> {
  if (jobIds.length === 0) return []
  const result = await asWorker(db, (tx) =>
    tx.execute(sql`
      UPDATE jobs SET heartbeat_at = now()
      WHERE id IN (${sql.join(
        jobIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )}) AND status = 'running'
      RETURNING id, cancel_requested`),
  )
  return rowsOf(result)
    .filter((r) => r.cancel_requested === true)
    .map((r) => r.id as string)
}

/**
 * Retention: deletes the records of jobs that finished (succeeded, failed or cancelled) more than
 * `retentionDays` days ago, in every organisation; queued and running jobs are never touched.
 * What a job produced (an analysis, a transcript) is stored elsewhere and stays. Returns how many
 * records were deleted.
 */
export async function purgeFinishedJobs(db: Db, retentionDays: number): Promise<number> {
  const result = await asWorker(db, (tx) =>
    tx.execute(sql`
      DELETE FROM jobs
      WHERE status IN ('succeeded', 'failed', 'cancelled')
        AND finished_at < now() - make_interval(days => ${retentionDays})
      RETURNING id`),
  )
  return rowsOf(result).length
}

export const INTERRUPTED_MESSAGE =
  'The server stopped while this job was running, and it was not retried again.'

/**
 * Crash recovery: running jobs whose process is gone (heartbeat older than `leaseSeconds`, or any
 * not run by `instanceId` when `exclusive`, i.e. this process is the only one) are queued again
 * while attempts remain, otherwise failed with INTERRUPTED_MESSAGE. Returns how many were touched.
 */
export async function recoverInterruptedJobs(
  db: Db,
  instanceId: string,
  leaseSeconds: number,
  exclusive: boolean,
): Promise<number> {
  const result = await asWorker(db, (tx) =>
    tx.execute(sql`
      UPDATE jobs SET
        status = CASE WHEN cancel_requested THEN 'cancelled'
                      WHEN attempts >= max_attempts THEN 'failed' ELSE 'queued' END,
        error = CASE WHEN cancel_requested OR attempts < max_attempts THEN error
                     ELSE ${INTERRUPTED_MESSAGE} END,
        error_code = CASE WHEN cancel_requested OR attempts < max_attempts THEN error_code
                          ELSE 'internal_error' END,
        finished_at = CASE WHEN cancel_requested OR attempts >= max_attempts THEN now() END,
        run_after = now(), locked_by = NULL, updated_at = now()
      WHERE status = 'running' AND (
        heartbeat_at < now() - make_interval(secs => ${leaseSeconds})
        OR (${exclusive} AND locked_by IS DISTINCT FROM ${instanceId}))
      RETURNING id`),
  )
  return rowsOf(result).length
}
