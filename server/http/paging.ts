/**
 * Paging shared by every list route: the query takes `limit` (default 50, at most 200) and
 * `offset` (rows skipped); the answer is `{ items, total }` where `total` counts every match.
 */
import { z } from 'zod'

/** Query parameters of a paged list; extend it with the list's own filters. */
export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50).describe('Items per page'),
  offset: z.coerce.number().int().min(0).default(0).describe('Items skipped'),
})

/** A page of `item`s and the number of all matching items; extend it with list-wide facts. */
export function pageOf<Item extends z.ZodType>(item: Item) {
  return z.object({
    items: z.array(item),
    total: z.number().int().describe('Items matching the filters, across all pages'),
  })
}
