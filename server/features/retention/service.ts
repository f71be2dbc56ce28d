/**
 * Retention policies and the deletion report of an organisation (issue 45, decision 0148): list,
 * set (insert or change, one per organisation-or-app and kind) and clear policies, each change
 * audited (`retention_policy.set`, `retention_policy.clear`); queue a retention run now; read the
 * report of what runs deleted, as a page of JSON or as CSV lines. The deleting itself is the
 * 'retention' job's (retention-job.ts).
 */
import { and, asc, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { apps, jobs, retentionDeletions, retentionPolicies } from '../../db/schema'
import { withTenant, withTenantReads, type Principal, type Tx } from '../../db/tenant'
import { asJobOf, toJob } from '../../jobs/job-service'
import { retentionJobContract } from '../../jobs/contracts/retention-job-contract'
import { readPage } from '../../lists/list-kit'
import { AppError, notFound } from '../../errors/app-error'
import { recordAudit } from '../../audit/record-audit'
import { csvLine } from '../../http/csv-line'
import { APP_RETENTION_KINDS, type RetentionKind } from '../../holds/retention-rule'
import type { JobRunner } from '../../jobs/job-runner'
import type { AppJobCatalogue } from '../../job-catalogue'

type PolicyRow = typeof retentionPolicies.$inferSelect
type DeletionRow = typeof retentionDeletions.$inferSelect

/** A policy as the API shows it (`keepDays` null: kept forever). */
export const toPolicy = (row: PolicyRow) => ({
  id: row.id,
  appId: row.appId,
  kind: row.kind as RetentionKind,
  keepDays: row.keepDays,
  setBy: row.setBy,
  setAt: row.setAt.toISOString(),
})

/** The organisation's policies, its defaults (no app) first, then by app and kind. */
export async function listPolicies(db: Db, principal: Principal) {
  const [rows] = await withTenantReads(db, principal, (tx) => [
    tx
      .select()
      .from(retentionPolicies)
      .orderBy(
        sql`${retentionPolicies.appId} NULLS FIRST`,
        asc(retentionPolicies.kind),
        asc(retentionPolicies.id),
      ),
  ])
  return { items: rows.map(toPolicy) }
}

/** What a policy says (routes.ts validates the shapes and bounds). */
export interface PolicyInput {
  kind: RetentionKind
  /** The app it is for; null or absent: the organisation's default. */
  appId?: string | null
  /** Days after the last change; null: keep forever. */
  keepDays: number | null
}

/**
 * The shortest a policy may keep audit entries, in days: a year, so that whoever shortened another
 * policy stays on record well past its effect (one admin could otherwise erase the trail of a mass
 * deletion the next day).
 */
export const MIN_AUDIT_KEEP_DAYS = 365

/**
 * Sets the policy of `input.kind` for the organisation (no app) or one of its apps, replacing the
 * one there was; answers it. 404 `app_not_found` for an app the organisation does not have
 * (another's is not told apart from none); 400 `validation_failed` for an app's policy of a kind
 * that has no app (stored objects, audit entries) or audit entries kept under
 * MIN_AUDIT_KEEP_DAYS; 403 `forbidden` for an audit-entries policy set by anyone but an owner
 * signed in.
 */
export async function setPolicy(db: Db, principal: Principal, input: PolicyInput) {
  const appId = input.appId ?? null
  if (input.kind === 'audit_entries') {
    // The audit log is the record of who did what, retention's own deletions included: only an
    // owner signed in may shorten it, and never below a year.
    if (principal.role !== 'owner' || principal.actorType !== 'user')
      throw new AppError(
        'forbidden',
        'Only an owner, signed in, can set how long audit entries are kept; never a credential',
      )
    if (input.keepDays !== null && input.keepDays < MIN_AUDIT_KEEP_DAYS)
      throw new AppError(
        'validation_failed',
        `Audit entries are kept at least ${MIN_AUDIT_KEEP_DAYS} days`,
      )
  }
  if (appId !== null && !APP_RETENTION_KINDS.includes(input.kind))
    throw new AppError(
      'validation_failed',
      `${input.kind.replace('_', ' ')} have no app: only the organisation's policy applies to them`,
    )
  return withTenant(db, principal, async (tx) => {
    if (appId !== null) {
      const [app] = await tx.select({ id: apps.id }).from(apps).where(eq(apps.id, appId))
      if (!app) throw notFound('App')
    }
    const values = {
      orgId: principal.orgId,
      appId,
      kind: input.kind,
      keepDays: input.keepDays,
      setBy: principal.userId,
      setAt: new Date(),
    }
    const [row] = await tx
      .insert(retentionPolicies)
      .values(values)
      .onConflictDoUpdate({
        target: [retentionPolicies.orgId, retentionPolicies.appId, retentionPolicies.kind],
        set: { keepDays: values.keepDays, setBy: values.setBy, setAt: values.setAt },
      })
      .returning()
    if (!row) throw new Error('upsert returned no row')
    await recordAudit(
      tx,
      principal,
      'retention_policy.set',
      { type: 'retention_policy', id: row.id },
      { kind: row.kind, appId: row.appId, keepDays: row.keepDays },
    )
    return toPolicy(row)
  })
}

/**
 * Clears policy `policyId` (its items are then governed by the organisation's default, or kept
 * when there is none). 404 `retention_policy_not_found` when the organisation has no such policy.
 */
export async function clearPolicy(db: Db, principal: Principal, policyId: string) {
  await withTenant(db, principal, async (tx) => {
    const [row] = await tx
      .delete(retentionPolicies)
      .where(eq(retentionPolicies.id, policyId))
      .returning()
    if (!row) throw new AppError('retention_policy_not_found', 'No such retention policy')
    await recordAudit(
      tx,
      principal,
      'retention_policy.clear',
      { type: 'retention_policy', id: row.id },
      { kind: row.kind, appId: row.appId, keepDays: row.keepDays },
    )
  })
}

/** What queueing a run needs: the job runner (services.jobs). */
export type RetentionQueue = Pick<JobRunner<AppJobCatalogue>, 'enqueue'>

/**
 * Queues a retention run of the organisation now (a 'retention' job, audited as every job's
 * creation is), or answers the one already queued or running.
 */
export async function startRetentionRun(db: Db, jobs: RetentionQueue, principal: Principal) {
  return withTenant(db, principal, async (tx) => {
    // One run at a time per organisation: two runs would race for the same items.
    await tx.execute(
      sql`SELECT pg_advisory_xact_lock(hashtext('retention:' || ${principal.orgId}))`,
    )
    const running = await activeRun(tx)
    if (running) return running
    return jobs.enqueue(tx, principal, 'retention', {})
  })
}

/** The organisation's queued or running retention job, if any (the caller's RLS confines it). */
async function activeRun(tx: Tx) {
  const [row] = await tx
    .select()
    .from(jobs)
    .where(and(eq(jobs.kind, 'retention'), sql`${jobs.status} IN ('queued', 'running')`))
    .limit(1)
  return row ? asJobOf(retentionJobContract, toJob(row)) : undefined
}

/** A report row as the API shows it. */
export const toDeletion = (row: DeletionRow) => ({
  id: row.id,
  deletedAt: row.deletedAt.toISOString(),
  kind: row.kind as RetentionKind,
  targetId: row.targetId,
  title: row.title,
  appId: row.appId,
  itemCount: row.itemCount,
  lastChangedAt: row.lastChangedAt?.toISOString() ?? null,
  policyId: row.policyId,
  policyKeepDays: row.policyKeepDays,
  jobId: row.jobId,
})

/** The report's period: deletions at or after `from` and before `to` (either may be open). */
export interface ReportRange {
  from?: Date
  to?: Date
}

function inRange(range: ReportRange): SQL | undefined {
  return and(
    range.from ? gte(retentionDeletions.deletedAt, range.from) : undefined,
    range.to ? lt(retentionDeletions.deletedAt, range.to) : undefined,
  )
}

/** A page of the deletion report in `range`, newest first, and how many rows match. */
export async function retentionReport(
  db: Db,
  principal: Principal,
  query: ReportRange & { limit: number; offset: number },
) {
  const { rows, total } = await readPage(db, principal, retentionDeletions, {
    where: inRange(query),
    orderBy: [desc(retentionDeletions.deletedAt), desc(retentionDeletions.id)],
    limit: query.limit,
    offset: query.offset,
  })
  return { items: rows.map(toDeletion), total }
}

/** The CSV columns of the deletion report, in order. */
export const REPORT_CSV_COLUMNS = [
  'deleted_at',
  'kind',
  'target_id',
  'title',
  'app_id',
  'item_count',
  'last_changed_at',
  'policy_id',
  'policy_keep_days',
  'job_id',
] as const

/** Rows one read of the CSV takes (the report is read in slices, never whole). */
const CSV_SLICE = 1000

/**
 * The deletion report in `range` as CSV lines (header first, oldest first, every value quoted
 * and neutralised as every export of the API is: server/http/csv-line.ts), read a slice at a
 * time. Rows are only ever added, later than every row there (so an offset stays stable).
 */
export async function* retentionReportCsv(
  db: Db,
  principal: Principal,
  range: ReportRange,
): AsyncGenerator<string> {
  yield csvLine(REPORT_CSV_COLUMNS)
  for (let offset = 0; ; offset += CSV_SLICE) {
    const rows: DeletionRow[] = await withTenant(db, principal, (tx) =>
      tx
        .select()
        .from(retentionDeletions)
        .where(inRange(range))
        .orderBy(asc(retentionDeletions.deletedAt), asc(retentionDeletions.id))
        .limit(CSV_SLICE)
        .offset(offset),
    )
    for (const row of rows) {
      const d = toDeletion(row)
      yield csvLine([
        d.deletedAt,
        d.kind,
        d.targetId,
        d.title,
        d.appId,
        d.itemCount,
        d.lastChangedAt,
        d.policyId,
        d.policyKeepDays,
        d.jobId,
      ])
    }
    if (rows.length < CSV_SLICE) return
  }
}

/** Whether the organisation has any retention policy (the daily schedule skips those without). */
export async function hasPolicies(db: Db, orgId: string): Promise<boolean> {
  const [rows] = await withTenantReads(db, { orgId }, (tx) => [
    tx.select({ id: retentionPolicies.id }).from(retentionPolicies).limit(1),
  ])
  return rows.length > 0
}
