/**
 * Entities: an organisation's typed records with JSON data. Plain functions over a tenant
 * transaction (RLS confines every statement to the principal's organisation); HTTP lives in
 * routes.ts. Every write is audited, and creations and deletions are written to the event log.
 */
import { and, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { entities, entityCounts, entityImports } from '../../db/schema'
import { withTenant, type Principal } from '../../db/tenant'
import { readListPage } from '../../lists/list-kit'
import { notFound } from '../../errors/app-error'
import { recordAudit } from '../../audit/record-audit'
import { recordEvent } from '../../events/record-event'
import { isForeignKeyViolation } from '../../db/constraint-violation'
import { orderByOf, parseSort } from './sort'

type EntityRow = typeof entities.$inferSelect

/**
 * Rows in sight: not staged by an import still running (decision 0035). The staging table is
 * empty but for running imports, so this costs a probe of an empty or tiny table.
 */
export const entityInSight = sql`(${entities.importJobId} IS NULL OR NOT EXISTS (
  SELECT FROM ${entityImports} WHERE ${entityImports.jobId} = ${entities.importJobId}))`

/** The API shape of an entity. */
export function toEntity(row: EntityRow) {
  return {
    id: row.id,
    orgId: row.orgId,
    appId: row.appId,
    type: row.type,
    name: row.name,
    data: row.data as Record<string, unknown>,
    createdAt: row.createdAt.toISOString(),
  }
}

/** Escapes LIKE wildcards so user search text matches literally. */
function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

/** Filters of the list and the export: one entity by `id`, search `q`, exact `type`, one app's rows. */
export interface EntityFilters {
  id?: string
  q?: string
  type?: string
  appId?: string
}

/** The WHERE of `filters`, rows in sight only (the organisation itself is RLS's business). */
export function entityWhere(filters: EntityFilters): SQL | undefined {
  const q = filters.q?.trim()
  return and(
    entityInSight,
    filters.id ? eq(entities.id, filters.id) : undefined,
    q ? or(ilike(entities.name, likePattern(q)), ilike(entities.type, likePattern(q))) : undefined,
    filters.type ? eq(entities.type, filters.type) : undefined,
    filters.appId ? eq(entities.appId, filters.appId) : undefined,
  )
}

/**
 * One page of the organisation's entities matching `query`, in the order of `query.sort` (see
 * sort.ts; a bad key is a 400 problem before any SQL runs), with the exact number of matches.
 * Without a search, the page walks a matching index and stops after `limit` rows, and the count
 * is the sum of the matching `entity_counts` counters (decision 0029), asked for in the same
 * round trip. With a search `q` (or one `id`), which the trigram index entities_search_idx
 * narrows to its candidates, the count is `count(*)` of the matches, read with the page by the
 * list kit (readListPage, decision 0123).
 */
export async function listEntities(
  db: Db,
  principal: Principal,
  query: EntityFilters & { sort?: string; limit: number; offset: number },
) {
  const orderBy = orderByOf(parseSort(query.sort))
  const where = entityWhere(query)
  // One entity by id is counted like a search: the counters know nothing of ids.
  const searching = Boolean(query.q?.trim()) || query.id !== undefined
  const { rows, total } = await readListPage(
    db,
    principal,
    query,
    (tx) => ({
      rows: tx
        .select()
        .from(entities)
        .where(where)
        .orderBy(...orderBy),
      total: searching
        ? tx.$count(entities, where)
        : tx
            .select({ total: sql<number>`coalesce(sum(${entityCounts.entities}), 0)::int` })
            .from(entityCounts)
            .where(
              and(
                query.type ? eq(entityCounts.type, query.type) : undefined,
                query.appId ? eq(entityCounts.appId, query.appId) : undefined,
              ),
            )
            .then(([row]) => row?.total ?? 0),
    }),
    // A search's best plan depends on the text searched (the trigram index's candidates).
    { reusePlans: !searching },
  )
  return { items: rows.map(toEntity), total }
}

/** The input of a new entity (validated by NewEntity in schemas.ts). */
export interface NewEntityInput {
  name: string
  type: string
  data: Record<string, unknown>
  appId?: string | null
}

/** Creates an entity (audited, event `entity.created`); 404 problem for another org's app. */
export async function createEntity(db: Db, principal: Principal, input: NewEntityInput) {
  try {
    return await withTenant(db, principal, async (tx) => {
      const [row] = await tx
        .insert(entities)
        .values({
          orgId: principal.orgId,
          appId: input.appId ?? null,
          name: input.name,
          type: input.type,
          data: input.data,
        })
        .returning()
      if (!row) throw new Error('insert returned no row')
      await recordAudit(tx, principal, 'entity.create', { type: 'entity', id: row.id })
      await recordEvent(
        tx,
        principal,
        'entity.created',
        { entityId: row.id, type: row.type },
        row.appId,
      )
      return toEntity(row)
    })
  } catch (error) {
    if (isForeignKeyViolation(error, 'entities_app_fk')) throw notFound('App')
    throw error
  }
}

/**
 * Changes some of name, type and data of one entity (audited, event `entity.updated` naming the
 * fields changed, not their values); 404 problem when not the org's.
 */
export async function updateEntity(
  db: Db,
  principal: Principal,
  id: string,
  patch: Partial<Pick<NewEntityInput, 'name' | 'type' | 'data'>>,
) {
  return withTenant(db, principal, async (tx) => {
    const [row] = await tx
      .update(entities)
      .set(patch)
      .where(and(eq(entities.id, id), entityInSight))
      .returning()
    if (!row) throw notFound('Entity')
    await recordAudit(
      tx,
      principal,
      'entity.update',
      { type: 'entity', id },
      { fields: Object.keys(patch) },
    )
    await recordEvent(
      tx,
      principal,
      'entity.updated',
      { entityId: id, fields: Object.keys(patch) },
      row.appId,
    )
    return toEntity(row)
  })
}

/**
 * Deletes the organisation's entities among `ids` (audited, event `entities.deleted`) and returns
 * how many went. Ids of other organisations' entities, or of none, are not deleted: RLS hides
 * them. `ids` of one entity is the per-row Delete; more is the bulk delete.
 */
export async function deleteEntities(db: Db, principal: Principal, ids: string[]) {
  return withTenant(db, principal, async (tx) => {
    const gone = await tx
      .delete(entities)
      .where(and(inArray(entities.id, ids), entityInSight))
      .returning({ id: entities.id })
    if (gone.length > 0) {
      await recordAudit(
        tx,
        principal,
        'entity.delete',
        { type: 'entity', id: gone.length === 1 ? (gone[0]?.id ?? null) : null },
        { ids: gone.map((g) => g.id) },
      )
      await recordEvent(tx, principal, 'entities.deleted', { count: gone.length })
    }
    return gone.length
  })
}
