import { cellText } from './cell-text'
import type { ReviewAnswer, ReviewCell } from './api'

/** The grid's sort: a column and a direction. */
export interface GridSort {
  columnId: string
  direction: 'ascending' | 'descending'
}

/** A column's filter: a state it must be in ('' any) and text its shown answer contains. */
export interface ColumnFilter {
  state: '' | 'answered' | 'not_found' | 'pending' | 'failed'
  contains: string
}

/** The answer a cell shows with its text (its override, else an answered cell's); null: none. */
function shownAnswer(
  cell: ReviewCell | undefined,
): { answer: ReviewAnswer; text: string | null } | null {
  const shown = cell?.override ?? (cell?.state === 'answered' ? cell : null)
  return shown?.answer ? { answer: shown.answer, text: shown.text } : null
}

/**
 * A shown answer's sort key: dates as times, money by amount, durations by months, yes first,
 * others by their text (the cells API's, as the grid shows it).
 */
function keyOf({ answer, text }: { answer: ReviewAnswer; text: string | null }): number | string {
  switch (answer.type) {
    case 'date':
      return Date.parse(answer.value)
    case 'money':
      return answer.amount
    case 'duration':
      return answer.months
    case 'yes_no':
      return answer.value ? 0 : answer.unlessConsent ? 1 : 2
    default:
      return (text ?? '').toLocaleLowerCase()
  }
}

/**
 * Compares two cells by their shown answers, typed (keyOf), `direction` applied; cells without
 * one (pending, running, not found, failed, unverified) come last in both directions.
 */
export function compareCells(
  a: ReviewCell | undefined,
  b: ReviewCell | undefined,
  direction: GridSort['direction'],
): number {
  const x = shownAnswer(a)
  const y = shownAnswer(b)
  if (!x || !y) return x ? -1 : y ? 1 : 0
  const kx = keyOf(x)
  const ky = keyOf(y)
  const order =
    typeof kx === 'number' && typeof ky === 'number'
      ? (Number.isNaN(kx) ? Infinity : kx) - (Number.isNaN(ky) ? Infinity : ky)
      : String(kx).localeCompare(String(ky))
  return direction === 'ascending' ? order : -order
}

/** Whether `cell` passes `filter` (state as the grid shows it; text case-insensitively). */
export function matchesFilter(cell: ReviewCell | undefined, filter: ColumnFilter): boolean {
  if (filter.state) {
    const state = !cell
      ? 'pending'
      : cell.override
        ? cell.override.answer
          ? 'answered'
          : 'not_found'
        : cell.state === 'running'
          ? 'pending'
          : cell.state
    if (state !== filter.state) return false
  }
  const text = filter.contains.trim().toLocaleLowerCase()
  return !text || cellText(cell).toLocaleLowerCase().includes(text)
}

/**
 * The grid's rows in drawing order: the indices (0…rows − 1) of the rows passing every filter,
 * sorted by `sort` (ties in grid order). `cellsOf(columnId)` is that column's cells in row order
 * (undefined while unread: its filter passes every row, its sort keeps grid order).
 */
export function orderRows(
  rows: number,
  sort: GridSort | null,
  filters: ReadonlyMap<string, ColumnFilter>,
  cellsOf: (columnId: string) => readonly ReviewCell[] | undefined,
): number[] {
  let order = Array.from({ length: rows }, (_, i) => i)
  for (const [columnId, filter] of filters) {
    const cells = cellsOf(columnId)
    if (cells) order = order.filter((i) => matchesFilter(cells[i], filter))
  }
  const sorted = sort && cellsOf(sort.columnId)
  if (sort && sorted)
    order.sort((a, b) => compareCells(sorted[a], sorted[b], sort.direction) || a - b)
  return order
}
