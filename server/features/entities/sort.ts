/**
 * The sort list of the entities table (spec: a list of {key, dir}): parsed from `key:dir,…`,
 * checked against the allowed columns, and turned into an ORDER BY made only of known column
 * references and bound parameters. An unknown key is a 400 problem; user text never becomes SQL.
 */
import { asc, desc, sql, type AnyColumn, type SQL } from 'drizzle-orm'
import { entities } from '../../db/schema'
import { AppError } from '../../errors/app-error'

export type SortDir = 'asc' | 'desc'
export interface SortTerm {
  key: string
  dir: SortDir
}

const COLUMNS: Record<string, AnyColumn> = {
  id: entities.id,
  org_id: entities.orgId,
  app_id: entities.appId,
  type: entities.type,
  name: entities.name,
  data: entities.data,
  created_at: entities.createdAt,
}

/** Prefix of a sort key naming a key inside `data`, e.g. `data.priority`. */
export const DATA_KEY_PREFIX = 'data.'
/** A key inside `data` that can be sorted by: 1–100 characters, no control characters, `,` or `:`. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what we refuse
const DATA_KEY = /^[^\u0000-\u001f,:]{1,100}$/
/** Most terms in one sort list. */
export const MAX_SORT_TERMS = 5

/** The default order: newest first (spec section 9). */
export const DEFAULT_SORT: SortTerm[] = [{ key: 'created_at', dir: 'desc' }]

function badSort(detail: string): AppError {
  return new AppError('bad_sort_key', detail)
}

/**
 * Parses `created_at:desc,data.priority:asc` into terms. Throws a 400 problem (`bad_sort_key`)
 * for an unknown column, a malformed `data.` key, a direction other than asc/desc, a repeated
 * key or more than MAX_SORT_TERMS terms. Empty or absent → DEFAULT_SORT.
 */
export function parseSort(spec: string | undefined): SortTerm[] {
  if (!spec?.trim()) return DEFAULT_SORT
  const terms = spec.split(',').map((raw) => {
    const at = raw.lastIndexOf(':')
    const key = (at < 0 ? raw : raw.slice(0, at)).trim()
    const dir = (
      at < 0
        ? 'asc'
        : raw
            .slice(at + 1)
            .trim()
            .toLowerCase()
    ) as SortDir
    if (dir !== 'asc' && dir !== 'desc')
      throw badSort(`Sort direction must be asc or desc (in ${JSON.stringify(raw.trim())}).`)
    const isDataKey =
      key.startsWith(DATA_KEY_PREFIX) && DATA_KEY.test(key.slice(DATA_KEY_PREFIX.length))
    // Own keys only: `in` would also accept what every object inherits (`constructor`, …).
    if (!Object.hasOwn(COLUMNS, key) && !isDataKey)
      throw badSort(
        `Cannot sort by ${JSON.stringify(key.slice(0, 100))}: sort by ${Object.keys(COLUMNS).join(', ')} or data.<key>.`,
      )
    return { key, dir }
  })
  if (terms.length > MAX_SORT_TERMS)
    throw badSort(`Sort by at most ${MAX_SORT_TERMS} columns at once.`)
  if (new Set(terms.map((t) => t.key)).size !== terms.length)
    throw badSort('Each column may appear once in the sort.')
  return terms
}

/**
 * ORDER BY expressions for `terms`, ending with `id` as a tie-break so pages never overlap. A
 * `data.<key>` term orders by `data -> key` (jsonb order: numbers numerically; rows without the
 * key last when ascending), with the key as a bound parameter.
 */
export function orderByOf(terms: SortTerm[]): SQL[] {
  const order = terms.map(({ key, dir }) => {
    const column = Object.hasOwn(COLUMNS, key) ? COLUMNS[key] : undefined
    const expression = column ?? sql`${entities.data} -> ${key.slice(DATA_KEY_PREFIX.length)}::text`
    return dir === 'asc' ? asc(expression) : desc(expression)
  })
  if (!terms.some((t) => t.key === 'id')) {
    // Same direction as the last term, so the default order walks entities_org_created_idx.
    const last = terms[terms.length - 1]
    order.push(last?.dir === 'desc' ? desc(entities.id) : asc(entities.id))
  }
  return order
}
