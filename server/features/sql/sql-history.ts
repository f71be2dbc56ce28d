/**
 * The SQL runner's history (decision 0061): the last SQL_HISTORY_SIZE queries each person (or
 * credential) ran in an organisation, whether they ran or were refused, in `sql_queries` under
 * RLS. Recording one deletes that actor's older ones past the limit in the same transaction.
 */
import { and, desc, eq, notInArray } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { sqlQueries } from '../../db/schema'
import { withTenant, withTenantReads, type Principal } from '../../db/tenant'

/** How many queries of each actor are kept (issue 30: "the last 20 queries of the user"). */
export const SQL_HISTORY_SIZE = 20

/** One query of the history as the API answers it. */
export interface SqlHistoryEntry {
  id: string
  sql: string
  rowCount: number | null
  durationMs: number | null
  error: string | null
  createdAt: string
}

/** Whose history a principal's queries are: the person, else `<actor type>:<credential id>`. */
function actorOf(principal: Principal): string {
  return principal.userId ?? `${principal.actorType}:${principal.credentialId ?? 'system'}`
}

/** Records one query of `principal` and keeps only its last SQL_HISTORY_SIZE. */
export async function recordSqlQuery(
  db: Db,
  principal: Principal,
  entry: { sql: string; rowCount?: number; durationMs?: number; error?: string },
): Promise<void> {
  const actor = actorOf(principal)
  await withTenant(db, principal, async (tx) => {
    await tx.insert(sqlQueries).values({
      orgId: principal.orgId,
      actor,
      sql: entry.sql,
      rowCount: entry.rowCount ?? null,
      durationMs: entry.durationMs ?? null,
      error: entry.error ?? null,
    })
    const kept = tx
      .select({ id: sqlQueries.id })
      .from(sqlQueries)
      .where(and(eq(sqlQueries.orgId, principal.orgId), eq(sqlQueries.actor, actor)))
      .orderBy(desc(sqlQueries.createdAt), desc(sqlQueries.id))
      .limit(SQL_HISTORY_SIZE)
    await tx
      .delete(sqlQueries)
      .where(
        and(
          eq(sqlQueries.orgId, principal.orgId),
          eq(sqlQueries.actor, actor),
          notInArray(sqlQueries.id, kept),
        ),
      )
  })
}

/** The principal's last SQL_HISTORY_SIZE queries in its organisation, newest first. */
export async function listSqlHistory(db: Db, principal: Principal): Promise<SqlHistoryEntry[]> {
  const [rows] = await withTenantReads(db, principal, (tx) => [
    tx
      .select()
      .from(sqlQueries)
      .where(and(eq(sqlQueries.orgId, principal.orgId), eq(sqlQueries.actor, actorOf(principal))))
      .orderBy(desc(sqlQueries.createdAt), desc(sqlQueries.id))
      .limit(SQL_HISTORY_SIZE),
  ])
  return rows.map((row) => ({
    id: row.id,
    sql: row.sql,
    rowCount: row.rowCount,
    durationMs: row.durationMs,
    error: row.error,
    createdAt: new Date(row.createdAt).toISOString(),
  }))
}
