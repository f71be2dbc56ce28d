/**
 * CSV export of entities, streamed: the rows are read in keyset batches of EXPORT_BATCH (newest
 * first, walking entities_org_created_idx), each batch in its own short tenant transaction, so
 * memory stays flat whatever the organisation holds and no transaction blocks others for long.
 */
import { and, desc, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { entities } from '../../db/schema'
import { withTenant, type Principal } from '../../db/tenant'
import { csvLine } from '../../http/csv-line'
import { CSV_HEADER } from './csv'
import { entityWhere, type EntityFilters } from './service'

/** Rows read per statement. */
export const EXPORT_BATCH = 1000

/** created_at as PostgreSQL's ISO 8601 text (microseconds kept, unlike a JavaScript Date). */
const createdAtText = sql<string>`to_json(${entities.createdAt}) #>> '{}'`

/**
 * The CSV file (csv.ts format) of the entities matching `filters`, as chunks of text: the header,
 * then one chunk per batch. Stops early when the consumer stops reading.
 */
export async function* exportEntitiesCsv(
  db: Db,
  principal: Principal,
  filters: EntityFilters,
): AsyncGenerator<string> {
  yield CSV_HEADER
  let after: { createdAt: string; id: string } | undefined
  for (;;) {
    const cursor = after
    const rows = await withTenant(db, principal, (tx) =>
      tx
        .select({
          id: entities.id,
          orgId: entities.orgId,
          appId: entities.appId,
          type: entities.type,
          name: entities.name,
          data: entities.data,
          createdAt: createdAtText,
        })
        .from(entities)
        .where(
          and(
            entityWhere(filters),
            cursor
              ? sql`(${entities.createdAt}, ${entities.id}) < (${cursor.createdAt}::timestamptz, ${cursor.id}::uuid)`
              : undefined,
          ),
        )
        .orderBy(desc(entities.createdAt), desc(entities.id))
        .limit(EXPORT_BATCH),
    )
    if (rows.length === 0) return
    yield rows
      .map((r) => csvLine([r.id, r.orgId, r.appId, r.type, r.name, r.data, r.createdAt]))
      .join('')
    const last = rows[rows.length - 1]
    if (!last || rows.length < EXPORT_BATCH) return
    after = { createdAt: last.createdAt, id: last.id }
  }
}
