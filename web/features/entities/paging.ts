/** Paging arithmetic of the entities table. */

/** Page sizes offered (spec section 9), shown as `x/page`; the default is 50. */
export const PAGE_SIZES = [25, 50, 100, 200] as const
export const DEFAULT_PAGE_SIZE = 50

/** The last page number for `total` rows at `pageSize` a page: at least 1. */
export function lastPageOf(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize))
}

/** `page` clamped to 1..lastPage (spec section 5); a non-number gives 1. */
export function clampPage(page: number, lastPage: number): number {
  if (!Number.isFinite(page)) return 1
  return Math.min(Math.max(1, Math.trunc(page)), Math.max(1, lastPage))
}
