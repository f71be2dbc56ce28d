/**
 * The list kit: the one way every list of the API is paged, filtered, counted, read and answered
 * (issue 42, decision 0123).
 *
 * - **Query**: `limit` (default 50, at most 200, unless the list says otherwise) and `offset`
 *   (rows skipped), extended with the list's own filters (pageQuery, PageQuery); a list that grows
 *   at its head while read pages by keyset instead: `limit` and an opaque `cursor` (keysetQuery,
 *   encodeCursor, decodeCursor).
 * - **Answer**: `{ items, total }` where `total` counts every match (pageOf), or
 *   `{ items, nextCursor }` (keysetPageOf); a list extends it with list-wide facts (a document
 *   list's types, an event list's kinds). The route declares it as its 200 response schema, and
 *   Fastify's serializer writes it. A list may opt into the kit's one fast path instead
 *   (json-text-page.ts: the page as JSON text built by PostgreSQL); the document list does,
 *   kept by decision 0123's A/B (decision 0135).
 * - **Read**: one tenant read (withTenantReads: the page, its count and any list-wide facts go to
 *   the database together) of a Drizzle query (readListPage, or readPage for a whole table's
 *   rows); the count is `count(*)` of the filter unless the list knows a cheaper one (counters
 *   kept by triggers).
 */
import { z } from 'zod'
import type { InferSelectModel, SQL } from 'drizzle-orm'
import type { AnyPgTable, PgTable } from 'drizzle-orm/pg-core'
import type { Db } from '../db/client'
import { withTenantReads, type ReadResults, type TenantScope } from '../db/tenant'
import { AppError } from '../errors/app-error'

/**
 * Query parameters of a paged list whose page holds `defaultLimit` items unless asked for up to
 * `maxLimit`; extend it with the list's own filters. Most lists use PageQuery.
 */
export function pageQuery({ defaultLimit, maxLimit }: { defaultLimit: number; maxLimit: number }) {
  return z.object({
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(maxLimit)
      .default(defaultLimit)
      .describe('Items per page'),
    offset: z.coerce.number().int().min(0).default(0).describe('Items skipped'),
  })
}

/** Query parameters of a paged list: 50 items a page unless asked for up to 200. */
export const PageQuery = pageQuery({ defaultLimit: 50, maxLimit: 200 })

/** A page of `item`s and the number of all matching items; extend it with list-wide facts. */
export function pageOf<Item extends z.ZodType>(item: Item) {
  return z.object({
    items: z.array(item),
    total: z.number().int().describe('Items matching the filters, across all pages'),
  })
}

/**
 * Query parameters of a keyset-paged list (newest first, decision 0046): `limit` as pageQuery,
 * and `cursor`, the opaque `nextCursor` of the page before (absent = the first page). For lists
 * that grow at their head while read (an audit log): an offset would show a row twice or skip one.
 */
export function keysetQuery({
  defaultLimit,
  maxLimit,
}: {
  defaultLimit: number
  maxLimit: number
}) {
  return pageQuery({ defaultLimit, maxLimit })
    .omit({ offset: true })
    .extend({
      cursor: z
        .string()
        .max(200)
        .optional()
        .describe('The nextCursor of the page before; absent for the first page'),
    })
}

/** A keyset page of `item`s: `nextCursor` is null on the last page. */
export function keysetPageOf<Item extends z.ZodType>(item: Item) {
  return z.object({
    items: z.array(item),
    nextCursor: z
      .string()
      .nullable()
      .describe('Pass as cursor for the next page; null when this page is the last'),
  })
}

/** The opaque cursor of a page ending at the row whose sort key is `key` (base64url JSON). */
export function encodeCursor(key: readonly string[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url')
}

/**
 * The sort key of `cursor` (encodeCursor's), of `length` strings; throws a 400 `bad_request`
 * problem for a cursor this API did not give.
 */
export function decodeCursor(cursor: string, length: number): string[] {
  let key: unknown
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {
    key = null
  }
  if (
    !Array.isArray(key) ||
    key.length !== length ||
    !key.every((part): part is string => typeof part === 'string')
  )
    throw new AppError(
      'bad_request',
      'The cursor is not one this list gave; start again without it.',
    )
  return key
}

/**
 * A keyset page from `rows`, read with `limit + 1` rows after the cursor (the one past the page
 * tells that more follow): the first `limit` rows, and `nextCursor`, `cursorOf` the page's last
 * row when more follow, else null.
 */
export function keysetPage<Row>(
  rows: readonly Row[],
  limit: number,
  cursorOf: (last: Row) => string,
): { items: Row[]; nextCursor: string | null } {
  const items = rows.slice(0, limit)
  const last = items.at(-1)
  return { items, nextCursor: rows.length > limit && last ? cursorOf(last) : null }
}

/** The window of an offset page: `limit` rows from `offset`. */
export interface PageWindow {
  limit: number
  offset: number
}

/**
 * A list's query before its window: a Drizzle select with its filter and order (`.where(…)
 * .orderBy(…)`), to which the kit adds `.limit(…).offset(…)`.
 */
export interface WindowedSelect<Row> {
  limit(limit: number): { offset(offset: number): PromiseLike<Row[]> }
}

/** What readListPage reads in one tenant read, given the transaction's handle `tx`. */
export interface ListReads<Row, Also extends readonly PromiseLike<unknown>[]> {
  /** The page's query: filter and order, no window. */
  rows: WindowedSelect<Row>
  /** The number of rows the filter matches (`tx.$count(table, where)`, or a counter's sum). */
  total: PromiseLike<number>
  /** List-wide facts read with the page (the distinct types of a document list, say). */
  also?: Also
}

/**
 * Reads one page of a list and its count (and `also`, its list-wide facts), confined to
 * `principal`'s organisation (and app, if any) by RLS: one tenant read (withTenantReads), with
 * plans reused unless `options.reusePlans` is false (pass false when the best plan depends on the
 * filter's values: a partial index that serves only some of them, a search). An index in the
 * order of the query (after org_id) lets the page stop after its rows. Throws what the database
 * throws.
 */
export async function readListPage<Row, const Also extends readonly PromiseLike<unknown>[] = []>(
  db: Db,
  principal: TenantScope,
  window: PageWindow,
  reads: (tx: Db) => ListReads<Row, Also>,
  options: { reusePlans?: boolean } = {},
): Promise<{ rows: Row[]; total: number; also: ReadResults<Also> }> {
  const [rows, total, ...also] = await withTenantReads(
    db,
    principal,
    (tx) => {
      const read = reads(tx)
      return [
        read.rows.limit(window.limit).offset(window.offset),
        read.total,
        ...((read.also ?? []) as unknown as Also),
      ] as const
    },
    { reusePlans: options.reusePlans ?? true },
  )
  return { rows: rows as Row[], total: total as number, also: also as unknown as ReadResults<Also> }
}

/** What readPage reads: the filter (undefined = every row the tenant sees), the order, the window. */
export interface PageRead extends PageWindow {
  where?: SQL
  orderBy: SQL[]
  /** As readListPage's option; default true. */
  reusePlans?: boolean
}

/**
 * readListPage of whole rows of `table`: `query.limit` rows from `query.offset` under
 * `query.where` in `query.orderBy`, and the number of rows under `query.where`. The paged lists
 * of the API whose items are one table's rows (apps, recordings, conversations, analyses, jobs,
 * tenant tokens…) use this.
 */
export async function readPage<T extends PgTable>(
  db: Db,
  principal: TenantScope,
  table: T,
  query: PageRead,
): Promise<{ rows: InferSelectModel<T>[]; total: number }> {
  const { rows, total } = await readListPage(
    db,
    principal,
    query,
    (tx) => ({
      rows: tx
        .select()
        .from(table as AnyPgTable)
        .where(query.where)
        .orderBy(...query.orderBy),
      total: tx.$count(table, query.where),
    }),
    { reusePlans: query.reusePlans },
  )
  return { rows: rows as InferSelectModel<T>[], total }
}
