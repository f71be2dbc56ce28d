/**
 * The staging of a CSV import (decision 0035). An import writes its rows in short transactions,
 * each row carrying the import job's id, while the job's row in `entity_imports` keeps them out
 * of sight (lists, search, export, edits and the counters skip them: service.ts `entityInSight`,
 * the `entities_count` trigger). It publishes them all in one small transaction that deletes
 * that row and adds their counters, or sweeps them in short transactions and gives their space
 * back. No transaction holds the embedded database for more than one batch.
 */
import { and, eq, inArray, notInArray, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { apps, entities, entityCounts, entityImports, jobs } from '../../db/schema'
import { withTenant, type Principal, type Tx } from '../../db/tenant'
import { notFound } from '../../errors/app-error'
import { ACTIVE_STATUSES } from '../../jobs/job-service'
import { DEFAULT_ENTITY_TYPE } from './schemas'
import type { ImportedEntity } from './csv'

/** Rows deleted per transaction by a sweep (deleting is cheaper than inserting: no index work). */
const SWEEP_BATCH = 2000

/** Lets requests that arrived meanwhile take the event loop (and the database) between batches. */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/** How many rows an import staged per (type): the counters its publication adds. */
export type StagedCounts = Map<string, number>

/**
 * Writes `batch` as rows staged by import `jobId` into `appId` (null: organisation-wide), in one
 * transaction of its own, and adds them to `counts`.
 */
export async function stageRows(
  db: Db,
  principal: Principal,
  target: { jobId: string; appId: string | null },
  batch: ImportedEntity[],
  counts: StagedCounts,
): Promise<void> {
  await withTenant(db, principal, (tx) =>
    tx.insert(entities).values(
      batch.map((e) => ({
        orgId: principal.orgId,
        appId: target.appId,
        name: e.name,
        type: e.type ?? DEFAULT_ENTITY_TYPE,
        data: e.data,
        importJobId: target.jobId,
        ...(e.createdAt ? { createdAt: sql`${e.createdAt}::timestamptz` } : {}),
      })),
    ),
  )
  for (const e of batch) {
    const type = e.type ?? DEFAULT_ENTITY_TYPE
    counts.set(type, (counts.get(type) ?? 0) + 1)
  }
}

/**
 * Publishes import `jobId`'s staged rows in `tx`: deletes its staging mark, so every row comes
 * into sight at once, and adds `counts` to the counters (the trigger skipped them). A 404
 * problem when the app imported into was deleted meanwhile (its row is locked until commit).
 */
export async function publishImport(
  tx: Tx,
  principal: Principal,
  target: { jobId: string; appId: string | null },
  counts: StagedCounts,
): Promise<void> {
  if (target.appId) {
    const [app] = await tx
      .select({ id: apps.id })
      .from(apps)
      .where(eq(apps.id, target.appId))
      .for('share')
    if (!app) throw notFound('App')
  }
  await tx.delete(entityImports).where(eq(entityImports.jobId, target.jobId))
  // In key order, as the trigger takes them (decision 0029): concurrent writers lock alike.
  const groups = [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  if (groups.length === 0) return
  await tx
    .insert(entityCounts)
    .values(
      groups.map(([type, n]) => ({
        orgId: principal.orgId,
        appId: target.appId,
        type,
        entities: n,
      })),
    )
    .onConflictDoUpdate({
      target: [entityCounts.orgId, entityCounts.appId, entityCounts.type],
      set: { entities: sql`${entityCounts.entities} + excluded.entities` },
    })
}

/** Marks import `jobId` as staging (before its first row is written); marking twice is a no-op. */
export async function markStaging(db: Db, principal: Principal, jobId: string): Promise<void> {
  await withTenant(db, principal, (tx) =>
    tx
      .insert(entityImports)
      .values({ jobId, orgId: principal.orgId })
      .onConflictDoNothing({ target: entityImports.jobId }),
  )
}

/**
 * Deletes every row import `jobId` staged, SWEEP_BATCH per transaction, then its staging mark,
 * VACUUMing entities around the mark's deletion, so the space of the deleted rows is given back
 * (the end of the table to the file system, index pages to later writes) instead of growing with
 * every failed import. A VACUUM reads the whole table's indexes: the one step of an import that
 * takes longer than a batch, and only when it failed (decision 0035).
 * Resolves to the number of rows deleted; sweeping an import that staged nothing is cheap.
 */
export async function sweepImport(db: Db, principal: Principal, jobId: string): Promise<number> {
  let swept = 0
  for (;;) {
    const gone = await withTenant(db, principal, (tx) =>
      tx.execute(sql`
        DELETE FROM entities WHERE id IN (
          SELECT id FROM entities WHERE import_job_id = ${jobId} LIMIT ${SWEEP_BATCH})`),
    )
    const deleted = gone as unknown as { affectedRows?: number; rowCount?: number }
    const n = deleted.affectedRows ?? deleted.rowCount ?? 0
    swept += n
    if (n < SWEEP_BATCH) break
    await nextTurn()
  }
  // VACUUM runs outside a transaction, as the database owner (never a tenant's statement). The
  // first gives the table's emptied end back to the file system and empties index pages; those
  // pages can be reused only once a transaction has ended after them (PostgreSQL's rule for
  // deleted B-tree pages), so the second, after the mark's deletion, hands them to later writes.
  if (swept > 0) await db.execute(sql`VACUUM entities`)
  await withTenant(db, principal, (tx) =>
    tx
      .delete(entityImports)
      .where(and(eq(entityImports.jobId, jobId), eq(entityImports.orgId, principal.orgId))),
  )
  if (swept > 0) await db.execute(sql`VACUUM entities`)
  return swept
}

/**
 * The organisation's imports left staging by a job that will not run again (its last attempt
 * cut by a crash, or a sweep that failed): their marks outlive their jobs' activity. The next
 * import of the organisation sweeps them.
 */
export async function abandonedImports(db: Db, principal: Principal): Promise<string[]> {
  const rows = await withTenant(db, principal, (tx) =>
    tx
      .select({ jobId: entityImports.jobId })
      .from(entityImports)
      .where(
        notInArray(
          entityImports.jobId,
          tx.select({ id: jobs.id }).from(jobs).where(inArray(jobs.status, ACTIVE_STATUSES)),
        ),
      ),
  )
  return rows.map((r) => r.jobId)
}
