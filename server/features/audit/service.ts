/**
 * The audit log, read side (issue 22, decision 0046): the organisation's audit rows newest first
 * by (created_at, id), filtered by actor, action and time, in keyset pages, with each actor's
 * name and whether each target still exists (so the viewer links only to what it can open).
 */
import { and, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm'
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core'
import type { Db } from '../../db/client'
import type { AuditActorType } from '../../db/actor-types'
import {
  apps,
  auditLogs,
  conversations,
  documents,
  entities,
  invitation,
  jobs,
  member,
  recordings,
  user,
} from '../../db/schema'
import { withTenant, withTenantReads, type Principal, type Tx } from '../../db/tenant'
import { decodeCursor, encodeCursor, keysetPage } from '../../lists/list-kit'

/** Which audit rows to read: every filter optional; `from` inclusive, `to` exclusive. */
export interface AuditFilters {
  actorId?: string
  actorType?: AuditActorType
  action?: string
  from?: string
  to?: string
}

/** One audit row as the API answers it. */
export interface AuditEntry {
  id: string
  actorType: AuditActorType
  actorId: string | null
  /**
   * The actor's name (or e-mail when unnamed), null for the system or an erased user; for an
   * imported row, the e-mail its archive gave the actor (`meta.importedActor.email`, decision
   * 0103), which names someone of another server, never a user of this one.
   */
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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
/** better-auth's ids (32 alphanumerics; UUIDs in tests and rows it did not write). */
const AUTH_ID = /^[\w-]{1,100}$/

/**
 * Where a kind of target lives: its table, the ids it can hold (an id of another shape is never
 * looked up) and what else makes one openable in an organisation.
 */
interface TargetTable {
  table: PgTable & { id: AnyPgColumn }
  ids: RegExp
  openable?: (orgId: string) => SQL | undefined
}

/** Tenant tables of targets, by audit target type: read in the tenant transaction (RLS). */
const TENANT_TARGETS: Record<string, TargetTable> = {
  document: { table: documents, ids: UUID },
  entity: { table: entities, ids: UUID },
  recording: { table: recordings, ids: UUID },
  conversation: { table: conversations, ids: UUID },
  app: { table: apps, ids: UUID },
  job: { table: jobs, ids: UUID },
}

/**
 * better-auth's member and invitation rows: no tenant rows (the app role does not read them), so
 * read as the users are, and openable only in the organisation read; an invitation only while
 * pending and unexpired (the Members screen lists no other).
 */
const TEAM_TARGETS: Record<string, TargetTable> = {
  member: { table: member, ids: AUTH_ID, openable: (orgId) => eq(member.organizationId, orgId) },
  invitation: {
    table: invitation,
    ids: AUTH_ID,
    openable: (orgId) =>
      and(
        eq(invitation.organizationId, orgId),
        eq(invitation.status, 'pending'),
        gte(invitation.expiresAt, new Date()),
      ),
  },
}

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

/**
 * The ids among `targets` (type, id) of the kinds of `tables` whose rows still exist and can be
 * opened in organisation `orgId`, as `type:id`, read through `reader`.
 */
async function existingTargets(
  reader: Tx | Db,
  tables: Record<string, TargetTable>,
  orgId: string,
  targets: { targetType: string; targetId: string | null }[],
): Promise<Set<string>> {
  const found = new Set<string>()
  for (const [type, { table, ids: idShape, openable }] of Object.entries(tables)) {
    const ids = [
      ...new Set(
        targets
          .filter((t) => t.targetType === type && t.targetId && idShape.test(t.targetId))
          .map((t) => t.targetId as string),
      ),
    ]
    if (ids.length === 0) continue
    const rows = await reader
      .select({ id: table.id })
      .from(table)
      .where(and(inArray(table.id, ids), openable?.(orgId)))
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
    return { rows, exists: await existingTargets(tx, TENANT_TARGETS, principal.orgId, rows) }
  })
  const names = await actorNames(
    db,
    rows.flatMap((r) => (r.actorId ? [r.actorId] : [])),
  )
  for (const key of await existingTargets(db, TEAM_TARGETS, principal.orgId, rows)) exists.add(key)
  return rows.map((r) => ({
    ...r,
    actorName:
      r.actorType === 'imported'
        ? importedActorEmail(r.meta)
        : r.actorId
          ? (names.get(r.actorId) ?? null)
          : null,
    targetExists: r.targetId !== null && exists.has(`${r.targetType}:${r.targetId}`),
    meta: r.meta as Record<string, unknown>,
  }))
}

/** The e-mail an import kept of an imported row's actor (`meta.importedActor.email`), or null. */
function importedActorEmail(meta: unknown): string | null {
  const actor = (meta as { importedActor?: { email?: unknown } } | null)?.importedActor
  return typeof actor?.email === 'string' ? actor.email : null
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
  return {
    ...keysetPage(entries, query.limit, (last) => encodeCursor([last.createdAt, last.id])),
    actions: (actions as unknown as { rows: { action: string }[] }).rows.map((r) => r.action),
    actors: members.map((m) => ({ id: m.id, name: m.name || m.email })),
  }
}
