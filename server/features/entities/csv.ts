/**
 * The entities CSV format (RFC 4180 with every value quoted), shared by export and import so one
 * reverses the other exactly:
 * - header `id,org_id,app_id,type,name,data,created_at`; the records and their formula
 *   neutralisation are server/http/csv-line.ts's (shared with the audit export), which import
 *   undoes exactly with restoreFormula.
 */
import { csvLine, restoreFormula } from '../../http/csv-line'

/** Columns of an exported file, in order. */
export const CSV_COLUMNS = ['id', 'org_id', 'app_id', 'type', 'name', 'data', 'created_at'] as const
export type CsvColumn = (typeof CSV_COLUMNS)[number]

/** The header record of an export. */
export const CSV_HEADER = csvLine(CSV_COLUMNS)

/** The key data holds when its CSV value is not a JSON object: `{ "_raw": "<the text>" }`. */
export const RAW_DATA_KEY = '_raw'

/**
 * The `data` of an imported value: the JSON object it holds, `{}` when empty, else the text
 * wrapped as `{ _raw: text }` (it did not parse, or is not an object).
 */
export function parseDataCell(text: string | null): Record<string, unknown> {
  if (text === null) return {}
  try {
    const parsed: unknown = JSON.parse(text)
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed))
      return parsed as Record<string, unknown>
  } catch {
    // not JSON: kept as text below
  }
  return { [RAW_DATA_KEY]: text }
}

/** ISO 8601 date-time as export writes it (and as people type it): date, optional time and zone. */
const ISO_DATE_TIME =
  /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?$/

/** Days in `month` (1–12) of `year` (proleptic Gregorian calendar, as PostgreSQL counts). */
function daysInMonth(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0
}

/** A zone offset ending what follows the date of an ISO date-time: its hours, optional minutes. */
const ZONE_OFFSET = /[+-](\d{2})(?::?\d{2})?$/

/**
 * Whether `text` (matching ISO_DATE_TIME) names a time PostgreSQL stores: a real calendar day
 * (not 2024-02-30, nor year 0), a zone offset within its ±15:59, and a time `Date.parse` reads.
 */
function isStorableDateTime(text: string): boolean {
  const [year = 0, month = 0, day = 0] = text.slice(0, 10).split('-').map(Number)
  const offsetHours = Number(ZONE_OFFSET.exec(text.slice(10))?.[1] ?? 0)
  return (
    year >= 1 &&
    day >= 1 &&
    day <= daysInMonth(year, month) &&
    offsetHours <= 15 &&
    !Number.isNaN(Date.parse(text))
  )
}

/** One imported entity, before it is given the importing organisation and app. */
export interface ImportedEntity {
  name: string
  type: string | null
  data: Record<string, unknown>
  /** ISO 8601 text, or null for "now". */
  createdAt: string | null
}

/**
 * Maps the header record to the column each position holds. Throws an Error with a user message
 * for an unknown or repeated column, or a missing `name`.
 */
export function readHeader(cells: string[]): (CsvColumn | null)[] {
  const columns = cells.map((cell, i) => {
    const name = (i === 0 ? cell.replace(/^\uFEFF/, '') : cell).trim().toLowerCase()
    if (!(CSV_COLUMNS as readonly string[]).includes(name))
      throw new Error(
        `Unknown column ${JSON.stringify(name.slice(0, 50))} in the header; the columns are ${CSV_COLUMNS.join(', ')}.`,
      )
    return name as CsvColumn
  })
  if (new Set(columns).size !== columns.length)
    throw new Error('A column appears twice in the header.')
  if (!columns.includes('name')) throw new Error('The header has no name column.')
  return columns
}

/**
 * One record as an entity. Values are restored (restoreFormula) and empty ones become null;
 * `id`, `org_id` and `app_id` are not taken from the file (the import gives new ids, the current
 * organisation and the chosen app). Throws an Error with a user message for a bad record.
 */
export function readRecord(columns: (CsvColumn | null)[], cells: string[]): ImportedEntity {
  if (cells.length !== columns.length)
    throw new Error(`It has ${cells.length} values; the header has ${columns.length}.`)
  const value = (column: CsvColumn): string | null => {
    const i = columns.indexOf(column)
    const text = i < 0 ? '' : restoreFormula(cells[i] ?? '')
    return text === '' ? null : text
  }
  const name = value('name')
  if (name === null) throw new Error('The name is empty.')
  const type = value('type')
  const createdAt = value('created_at')
  if (createdAt !== null && !(ISO_DATE_TIME.test(createdAt) && isStorableDateTime(createdAt)))
    throw new Error(
      `created_at ${JSON.stringify(createdAt.slice(0, 40))} is not an ISO 8601 date that exists.`,
    )
  return { name, type, data: parseDataCell(value('data')), createdAt }
}
