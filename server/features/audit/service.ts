/**
 * The audit log, read side (issue 22, decision 0046): the organisation's audit rows newest first
 * by (created_at, id), filtered by actor, action and time, in keyset pages, with each actor's
 * name and whether each target still exists (so the viewer links only to what it can open).
 */
import { and, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm'
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core'
import type { Db } from '../../db/client'
import type { ActorType } from '../../db/actor-types'
import {
  apps,
  auditLogs,
  conversations,
  documents,
  entities,
  jobs,
  member,
  recordings,
  user,
} from '../../db/schema'
import { withTenant, withTenantReads, type Principal, type Tx } from '../../db/tenant'
import { decodeCursor, encodeCursor } from '../../http/paging'

/** Which audit rows to read: every filter optional; `from` inclusive, `to` exclusive. */
export interface AuditFilters {
  actorId?: string
  actorType?: ActorType
  action?: string
  from?: string
  to?: string
}

/** One audit row as the API answers it. */
export interface AuditEntry {
  id: string
  actorType: ActorType
  actorId: string | null
  /** The actor's name (or e-mail when unnamed), null for the system or an erased user. */
  actorName: string | null
  credentialId: string | null
  action: string
  targetType: string
  targetId: string | null
  /** Whether the target is still there to be opened (false for kinds with no page of their own). */
  targetExists: boolean
  meta: Record<string, unknown>
  /** ISO 8601 with microseconds (PostgreSQL's precision, so it sorts and pages exactly). */
  createdAt: string
}

/** The tables of targets the web can open, by audit target type. */
const TARGET_TABLES: Record<string, PgTable & { id: AnyPgColumn }> = {
  document: documents,
  entity: entities,
  recording: recordings,
  conversation: conversations,
  app: apps,
  job: jobs,
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** created_at as PostgreSQL's ISO 8601 text (microseconds kept, unlike a JavaScript Date). */
const createdAtText = sql<string>`to_json(${auditLogs.createdAt}) #>> '{}'`

/** The condition of `filters` (undefined = every row the tenant sees). */
function auditWhere(filters: AuditFilters): SQL | undefined {
  return and(
    filters.actorId ? eq(auditLogs.actorId, filters.actorId) : undefined,
    filters.actorType ? eq(auditLogs.actorType, filters.actorType) : undefined,
    filters.action ? eq(auditLogs.action, filters.action) : undefined,
    filters.from ? gte(auditLogs.createdAt, new Date(filters.from)) : undefined,
    filters.to ? lt(auditLogs.createdAt, new Date(filters.to)) : undefined,
  )
}

/** The ids among `targets` (type, id) whose rows still exist, as `type:id`, read in `tx`. */
async function existingTargets(
  tx: Tx,
  targets: { targetType: string; targetId: string | null }[],
): Promise<Set<string>> {
  const found = new Set<string>()
  for (const [type, table] of Object.entries(TARGET_TABLES)) {
    const ids = [
      ...new Set(
        targets
          .filter((t) => t.targetType === type && t.targetId && UUID.test(t.targetId))
          .map((t) => t.targetId as string),
      ),
    ]
    if (ids.length === 0) continue
    const rows = await tx.select({ id: table.id }).from(table).where(inArray(table.id, ids))
    for (const row of rows) found.add(`${type}:${String(row.id)}`)
  }
  return found
}

/** The names of `userIds` (name, else e-mail). Users are not tenant rows: read without RLS. */
async function actorNames(db: Db, userIds: string[]): Promise<Map<string, string>> {
  const ids = [...new Set(userIds)]
  if (ids.length === 0) return new Map()
  const rows = await db
    .select({ id: user.id, name: user.name, email: user.email })
    .from(user)
    .where(inArray(user.id, ids))
  return new Map(rows.map((r) => [r.id, r.name || r.email]))
}

/**
 * Up to `limit` audit rows of the organisation matching `filters`, newest first, after the row
 * whose (createdAt, id) is `after`, with actor names and target existence: one tenant
 * transaction for the rows and their targets, one read of the users.
 */
export async function readAuditBatch(
  db: Db,
  principal: Principal,
  filters: AuditFilters,
  after: { createdAt: string; id: string } | undefined,
  limit: number,
): Promise<AuditEntry[]> {
  const { rows, exists } = await withTenant(db, principal, async (tx) => {
    const rows = await tx
      .select({
        id: auditLogs.id,
        actorType: auditLogs.actorType,
        actorId: auditLogs.actorId,
        credentialId: auditLogs.credentialId,
        action: auditLogs.action,
        targetType: auditLogs.targetType,
        targetId: auditLogs.targetId,
        meta: auditLogs.meta,
        createdAt: createdAtText,
      })
      .from(auditLogs)
      .where(
        and(
          auditWhere(filters),
          after
            ? sql`(${auditLogs.createdAt}, ${auditLogs.id}) < (${after.createdAt}::timestamptz, ${after.id}::uuid)`
            : undefined,
        ),
      )
      .orderBy(desc(auditLogs.createdAt), desc(auditLogs.id))
      .limit(limit)
    return { rows, exists: await existingTargets(tx, rows) }
  })
  const names = await actorNames(
    db,
    rows.flatMap((r) => (r.actorId ? [r.actorId] : [])),
  )
  return rows.map((r) => ({
    ...r,
    actorName: r.actorId ? (names.get(r.actorId) ?? null) : null,
    targetExists: r.targetId !== null && exists.has(`${r.targetType}:${r.targetId}`),
    meta: r.meta as Record<string, unknown>,
  }))
}

/** The sort key of the row at which a cursor resumes. */
function afterCursor(cursor: string | undefined) {
  if (!cursor) return undefined
  const [createdAt = '', id = ''] = decodeCursor(cursor, 2)
  if (Number.isNaN(Date.parse(createdAt)) || !UUID.test(id)) decodeCursor('', 2)
  return { createdAt, id }
}

/**
 * One keyset page of the audit log (`limit` rows after `cursor`, newest first) and the cursor of
 * the next (null on the last), with the actions the organisation's log holds and its members
 * (the viewer's filters). Throws a 400 problem for a cursor this list did not give.
 */
export async function listAudit(
  db: Db,
  principal: Principal,
  query: AuditFilters & { cursor?: string; limit: number },
) {
  const after = afterCursor(query.cursor)
  const [entries, [actions], members] = await Promise.all([
    readAuditBatch(db, principal, query, after, query.limit + 1),
    withTenantReads(db, principal, (tx) => [
      // Loose index scan over audit_logs_org_action_created_idx: one probe per distinct action.
      tx.execute<{ action: string }>(sql`
        with recursive a(action) as (
          (select action from audit_logs order by action limit 1)
          union all
          select (select l.action from audit_logs l where l.action > a.action
                  order by l.action limit 1)
          from a where a.action is not null)
        select action from a where action is not null`),
    ]),
    db
      .select({ id: user.id, name: user.name, email: user.email })
      .from(member)
      .innerJoin(user, eq(user.id, member.userId))
      .where(eq(member.organizationId, principal.orgId))
      .orderBy(user.name, user.email),
  ])
  const items = entries.slice(0, query.limit)
  const last = items.at(-1)
  return {
    items,
    nextCursor:
      entries.length > query.limit && last ? encodeCursor([last.createdAt, last.id]) : null,
    actions: (actions as unknown as { rows: { action: string }[] }).rows.map((r) => r.action),
    actors: members.map((m) => ({ id: m.id, name: m.name || m.email })),
  }
}
