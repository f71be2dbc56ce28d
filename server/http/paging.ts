/**
 * Paging shared by every list route: the query takes `limit` (default 50, at most 200, unless the
 * list says otherwise) and `offset` (rows skipped); the answer is `{ items, total }` where `total`
 * counts every match. Lists that grow at their head while read page by keyset instead
 * (keysetQuery, keysetPageOf: `{ items, nextCursor }`).
 */
import { z } from 'zod'
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
