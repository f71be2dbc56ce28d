/**
 * One page of a tenant table and the number of rows matching, read together: the paged lists of
 * the API (apps, recordings, conversations, analyses, jobs…) share this shape.
 */
import type { InferSelectModel, SQL } from 'drizzle-orm'
import type { AnyPgTable, PgTable } from 'drizzle-orm/pg-core'
import type { Db } from './client'
import { withTenantReads, type Principal } from './tenant'

/** What to read: the filter (undefined = every row the tenant sees), the order, the window. */
export interface PageRead {
  where?: SQL
  orderBy: SQL[]
  limit: number
  offset: number
}

/**
 * Reads `query.limit` rows of `table` from `query.offset` under `query.where` in `query.orderBy`,
 * and the number of rows under `query.where`, confined to `principal`'s organisation by RLS. One
 * tenant read with reused plans (withTenantReads): give `orderBy` an index of the table, so the
 * page stops after its rows whatever the values.
 */
export async function readPage<T extends PgTable>(
  db: Db,
  principal: Pick<Principal, 'orgId'>,
  table: T,
  query: PageRead,
): Promise<{ rows: InferSelectModel<T>[]; total: number }> {
  const [rows, total] = await withTenantReads(
    db,
    principal,
    (tx) => [
      tx
        .select()
        .from(table as AnyPgTable)
        .where(query.where)
        .orderBy(...query.orderBy)
        .limit(query.limit)
        .offset(query.offset),
      tx.$count(table, query.where),
    ],
    { reusePlans: true },
  )
  return { rows: rows as InferSelectModel<T>[], total }
}
