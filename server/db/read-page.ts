/**
 * One page of a tenant table and the number of rows matching, read together: the paged lists of
 * the API (apps, recordings, conversations, analyses, jobs…) share this shape.
 */
import type { InferSelectModel, SQL } from 'drizzle-orm'
import type { AnyPgTable, PgTable } from 'drizzle-orm/pg-core'
import type { Db } from './client'
import { withTenantReads, type TenantScope } from './tenant'

/** What to read: the filter (undefined = every row the tenant sees), the order, the window. */
export interface PageRead {
  where?: SQL
  orderBy: SQL[]
  limit: number
  offset: number
  /**
   * Reuse the statements' plans (withTenantReads); default true. Pass false when the best plan
   * depends on the filter's values: a partial index that serves only some of them, a search.
   */
  reusePlans?: boolean
}

/**
 * Reads `query.limit` rows of `table` from `query.offset` under `query.where` in `query.orderBy`,
 * and the number of rows under `query.where`, confined to `principal`'s organisation (and app, if any) by RLS. One
 * tenant read (withTenantReads), with reused plans unless `query.reusePlans` is false. An index
 * in the order of `orderBy` (after org_id) lets the page stop after its rows.
 */
export async function readPage<T extends PgTable>(
  db: Db,
  principal: TenantScope,
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
    { reusePlans: query.reusePlans ?? true },
  )
  return { rows: rows as InferSelectModel<T>[], total }
}
