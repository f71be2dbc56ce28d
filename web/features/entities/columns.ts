/** The columns of the entities table: the entity's own fields, then keys found in the data. */
import type { Entity } from './api/entities-api'

/** The entity's own columns, in order, with the API field each shows. */
export const BASE_COLUMNS = [
  { id: 'id', field: 'id' },
  { id: 'org_id', field: 'orgId' },
  { id: 'app_id', field: 'appId' },
  { id: 'type', field: 'type' },
  { id: 'name', field: 'name' },
  { id: 'data', field: 'data' },
  { id: 'created_at', field: 'createdAt' },
] as const satisfies readonly { id: string; field: keyof Entity }[]

/** Hidden until shown (spec section 3): org_id and app_id. */
export const HIDDEN_BY_DEFAULT = ['org_id', 'app_id']

/** Prefix of the id of a column showing a key of the data, e.g. `data.priority`. */
export const DATA_COLUMN_PREFIX = 'data.'

/** A data key the server can sort by (sort.ts on the server: no control characters, `,` or `:`). */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is excluded
const SORTABLE_DATA_KEY = /^[^\u0000-\u001f,:]{1,100}$/

/** The keys found in the rows' data, in order of first appearance, as column ids. */
export function dataColumnsOf(rows: readonly Entity[]): string[] {
  const keys = new Set<string>()
  for (const row of rows) for (const key of Object.keys(row.data)) keys.add(key)
  return [...keys].map((key) => `${DATA_COLUMN_PREFIX}${key}`)
}

/** Whether the header of column `id` can sort. */
export function isSortable(id: string): boolean {
  return (
    !id.startsWith(DATA_COLUMN_PREFIX) ||
    SORTABLE_DATA_KEY.test(id.slice(DATA_COLUMN_PREFIX.length))
  )
}

/** The text a cell shows: JSON for objects and arrays, '' for null or missing. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return ''
  return typeof value === 'object' ? JSON.stringify(value) : String(value)
}

/** The value of column `id` in `row`. */
export function cellValue(row: Entity, id: string): unknown {
  if (id.startsWith(DATA_COLUMN_PREFIX)) return row.data[id.slice(DATA_COLUMN_PREFIX.length)]
  const column = BASE_COLUMNS.find((c) => c.id === id)
  return column ? row[column.field] : undefined
}
