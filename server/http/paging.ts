/**
 * Paging shared by every list route: the query takes `limit` (default 50, at most 200, unless the
 * list says otherwise) and `offset` (rows skipped); the answer is `{ items, total }` where `total`
 * counts every match.
 */
import { z } from 'zod'

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
