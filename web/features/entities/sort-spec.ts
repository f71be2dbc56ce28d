/** The sort list of the entities table (spec: a list of {key, dir}) and its header toggle. */

export interface SortTerm {
  key: string
  dir: 'asc' | 'desc'
}

/** With no term left, the table is sorted newest first (spec section 9). */
export const DEFAULT_SORT: SortTerm[] = [{ key: 'created_at', dir: 'desc' }]

/** The most columns the API sorts by at once (MAX_SORT_TERMS in server/features/entities/sort.ts). */
export const MAX_SORT_TERMS = 5

/**
 * The sort after a click on column `key`'s header (spec section 4): unsorted → ascending, placed
 * first; ascending → descending (in place); descending → removed. An empty list means DEFAULT_SORT.
 * A sixth column pushes out the last (least significant) one, as the API sorts by at most five.
 */
export function toggleSort(sort: readonly SortTerm[], key: string): SortTerm[] {
  const current = sort.find((t) => t.key === key)
  if (!current) return [{ key, dir: 'asc' as const }, ...sort].slice(0, MAX_SORT_TERMS)
  if (current.dir === 'asc') return sort.map((t) => (t.key === key ? { key, dir: 'desc' } : t))
  return sort.filter((t) => t.key !== key)
}

/** The API's `sort` parameter: `key:dir,…`, or the default order when the list is empty. */
export function sortParam(sort: readonly SortTerm[]): string {
  return (sort.length > 0 ? sort : DEFAULT_SORT).map((t) => `${t.key}:${t.dir}`).join(',')
}
