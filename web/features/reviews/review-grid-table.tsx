import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import { useQueries } from '@tanstack/react-query'
import { measureElement, observeElementRect, useVirtualizer } from '@tanstack/react-virtual'
import { TablePlaceholderRow } from '../../components/table-placeholder-row'
import {
  documentTitlesQuery,
  reviewCellsPageQuery,
  reviewColumnCellsQuery,
  rowsPerPage,
  type Review,
  type ReviewCell,
} from './api'
import { orderRows, type ColumnFilter, type GridSort } from './grid-order'
import { titleBatches } from './title-batches'

/** A row's height before it is measured (px): one line of text with the cell's padding. */
const ROW_ESTIMATE = 41
/** A phone card's height before it is measured (px): its title, then a label and answer a column. */
const CARD_ESTIMATE = (columns: number) => 44 + 44 * columns
/** Rows rendered beyond the visible ones, above and below. */
const OVERSCAN = 8
/**
 * The scroll box's size when it measures as nothing (px): jsdom measures every box as 0 × 0, so
 * tests see the rows that fit in this; a browser measures the box's real size.
 */
const INITIAL_RECT = { width: 1024, height: 720 }

/** One row of the grid: its document and its cells by column id (undefined: page not read yet). */
export interface GridRow {
  /** Its position in the grid (0 first): its page is index ÷ rowsPerPage. */
  index: number
  rowId: string
  documentId: string
  /** Its document's title ('Document' while unknown). */
  title: string
  cells: Map<string, ReviewCell>
}

/**
 * What a cell's control spreads on itself for keyboard movement in the table (roving tabindex):
 * only the active cell is in the tab order; `data-cell` is "row:column" (0-based positions).
 * Empty in the phone list, where every answer is in the tab order.
 */
export interface CellNav {
  tabIndex?: number
  'data-cell'?: string
  onFocus?(): void
}

/** A filter that lets every row through. */
const NO_FILTER: ColumnFilter = { state: '', contains: '' }

/** The states a column's filter offers. */
const STATE_OPTIONS: { value: ColumnFilter['state']; label: string }[] = [
  { value: '', label: 'Any state' },
  { value: 'answered', label: 'Answered' },
  { value: 'not_found', label: 'Not found' },
  { value: 'pending', label: 'Pending' },
  { value: 'failed', label: 'Failed' },
]

/** The arrow keys' moves (rows, columns). */
const MOVES: Record<string, [number, number]> = {
  ArrowUp: [-1, 0],
  ArrowDown: [1, 0],
  ArrowLeft: [0, -1],
  ArrowRight: [0, 1],
}

/**
 * The review grid as a table whose body renders only the rows in view (TanStack Virtual; the
 * issue names it): 1,000 documents × 20 questions renders some 30 rows, not 20,000 cells. The
 * cells are read a page at a time (reviewCellsPageQuery: as many whole rows as fit in the
 * server's page of 1,000 cells), only the pages of the rows in view. Columns are not virtualised
 * (a review has at most 50). `renderCell` draws a cell's control, spreading `nav` on it;
 * `titles` names the documents the caller knows (the builder's latest 200): the titles of rows
 * in view past them are read by the hundred (documentTitlesQuery; titleBatches).
 *
 * `layout` 'table' is the grid, whose cells the arrow keys move between (roving tabindex: Tab
 * enters at the last cell focused); 'list' is the phone view, a card per document listing its
 * columns' labels and answers.
 *
 * Sort and filter (issue 44): a column header's button sorts the rows by that column's answer
 * (typed, unanswered last; again reverses), a column's filter (a state, or text its answer
 * contains) hides the rows not matching. Both read the column's cells for every row
 * (reviewColumnCellsQuery); the virtual rows then draw in that order, in both layouts.
 */
export function ReviewGridTable(props: {
  orgId: string
  review: Review
  titles: ReadonlyMap<string, string>
  layout?: 'table' | 'list'
  renderCell(row: GridRow, column: Review['columns'][number], nav: CellNav): ReactNode
}) {
  const { orgId, review, titles } = props
  const layout = props.layout ?? 'table'
  const estimate = layout === 'list' ? CARD_ESTIMATE(review.columns.length) : ROW_ESTIMATE
  const scroller = useRef<HTMLDivElement>(null)
  const [sort, setSort] = useState<GridSort | null>(null)
  const [filters, setFilters] = useState<ReadonlyMap<string, ColumnFilter>>(new Map())
  const applied = [...filters].filter(([, f]) => f.state !== '' || f.contains.trim() !== '')
  const needed = [...new Set([...(sort ? [sort.columnId] : []), ...applied.map(([id]) => id)])]
  const columnReads = useQueries({
    queries: needed.map((columnId) => reviewColumnCellsQuery(orgId, review.id, columnId)),
  })
  const columnCells = new Map(needed.map((id, i) => [id, columnReads[i]?.data] as const))
  const ordering = columnReads.some((read) => read.isPending)
  const orderKey = JSON.stringify([sort, applied, columnReads.map((read) => read.dataUpdatedAt)])
  const order = useMemo(
    () => orderRows(review.rows, sort, new Map(applied), (id) => columnCells.get(id)),
    // orderKey names every input that changes the order.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [review.rows, orderKey],
  )
  const setFilter = (columnId: string, change: Partial<ColumnFilter>) =>
    setFilters((all) =>
      new Map(all).set(columnId, { ...(all.get(columnId) ?? NO_FILTER), ...change }),
    )
  const toggleSort = (columnId: string) =>
    setSort((now) => ({
      columnId,
      direction:
        now?.columnId === columnId && now.direction === 'ascending' ? 'descending' : 'ascending',
    }))
  // TanStack Virtual's functions are not memoizable; this component passes only measureElement,
  // as a ref, and to no memoized component.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: order.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => estimate,
    overscan: OVERSCAN,
    initialRect: INITIAL_RECT,
    observeElementRect: (instance, report) =>
      observeElementRect(instance, (rect) => report(rect.height > 0 ? rect : INITIAL_RECT)),
    // A row measured as nothing (jsdom) keeps its estimate.
    measureElement: (element, entry, instance) =>
      measureElement(element, entry, instance) || estimate,
  })
  const items = virtualizer.getVirtualItems()
  const perPage = rowsPerPage(review.columns.length)
  const pages = useMemo(() => {
    const wanted = new Set(
      items.map((item) => Math.floor((order[item.index] ?? item.index) / perPage)),
    )
    return [...wanted].sort((a, b) => a - b)
  }, [items, perPage, order])
  const reads = useQueries({
    queries: pages.map((page) =>
      reviewCellsPageQuery(orgId, review.id, page, review.columns.length),
    ),
  })
  const rowsByIndex = useMemo(() => {
    const byIndex = new Map<number, GridRow>()
    pages.forEach((page, i) => {
      const read = reads[i]?.data
      if (!read) return
      let index = page * perPage - 1
      let last: GridRow | undefined
      for (const cell of read.items) {
        if (last?.rowId !== cell.rowId) {
          index += 1
          last = {
            index,
            rowId: cell.rowId,
            documentId: cell.documentId,
            title: 'Document',
            cells: new Map(),
          }
          byIndex.set(index, last)
        }
        last.cells.set(cell.columnId, cell)
      }
    })
    return byIndex
  }, [pages, reads, perPage])
  // The titles of the rows in view that `titles` does not know, a read per batch of rows.
  const batches = useMemo(
    () =>
      titleBatches(
        items.map((item) => order[item.index] ?? -1),
        rowsByIndex,
        perPage,
        titles,
      ),
    [items, rowsByIndex, perPage, titles, order],
  )
  const titleReads = useQueries({
    queries: batches.map((ids) => documentTitlesQuery(orgId, ids)),
  })
  const titleOf = (documentId: string) =>
    titles.get(documentId) ??
    titleReads.find((read) => read.data?.has(documentId))?.data?.get(documentId) ??
    'Document'
  // The row drawn at position `index` (its GridRow.index is its place in the grid's own order).
  const rowAt = (index: number) => {
    const row = rowsByIndex.get(order[index] ?? -1)
    return row && { ...row, title: titleOf(row.documentId) }
  }

  // The table's active cell (row and column positions) and whether a key just moved it.
  const [active, setActiveState] = useState({ row: 0, column: 0 })
  // The latest position asked for, ahead of its render: keys pressed faster than the grid draws
  // go on from it.
  const latest = useRef(active)
  const setActive = (next: { row: number; column: number }) => {
    latest.current = next
    setActiveState(next)
  }
  const moved = useRef(false)
  useEffect(() => {
    if (!moved.current) return
    // The latest position, not `active`: the virtualizer draws as it scrolls, before `active`.
    const { row, column } = latest.current
    const target = scroller.current?.querySelector<HTMLElement>(`[data-cell="${row}:${column}"]`)
    // Not drawn yet (its page loading): this runs again when the rows arrive.
    if (!target) return
    moved.current = false
    target.focus()
  }, [active, rowsByIndex])
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const move = MOVES[event.key]
    const at = (event.target as HTMLElement).closest<HTMLElement>('[data-cell]')?.dataset.cell
    if (!move || !at) return
    event.preventDefault()
    // A move still waiting for its cell to be drawn goes on from there.
    const { row, column } = moved.current
      ? latest.current
      : (([r, c]) => ({ row: r!, column: c! }))(at.split(':').map(Number))
    const next = {
      row: Math.min(order.length - 1, Math.max(0, row + move[0])),
      column: Math.min(review.columns.length - 1, Math.max(0, column + move[1])),
    }
    if (next.row === row && next.column === column) return
    moved.current = true
    setActive(next)
    virtualizer.scrollToIndex(next.row, { align: 'auto' })
  }
  // Scrolled away from the active cell, Tab enters at the first drawn row's first cell.
  const drawnAt = (index: number) => rowsByIndex.has(order[index] ?? -1)
  const entry = items.some((item) => item.index === active.row && drawnAt(item.index))
    ? active
    : { row: items.find((item) => drawnAt(item.index))?.index ?? -1, column: 0 }
  const navOf = (index: number, column: number): CellNav =>
    layout === 'list'
      ? {}
      : {
          tabIndex: entry.row === index && entry.column === column ? 0 : -1,
          'data-cell': `${index}:${column}`,
          onFocus: () => setActive({ row: index, column }),
        }

  const failed =
    reads.find((read) => read.status === 'error') ??
    columnReads.find((read) => read.status === 'error')
  const sortButton = (column: Review['columns'][number]) => {
    const direction = sort?.columnId === column.id ? sort.direction : undefined
    return (
      <button
        type="button"
        className="inline-flex items-center gap-1 text-left font-medium underline-offset-2 hover:underline"
        aria-label={`Sort by ${column.label}${direction === 'ascending' ? ', descending' : ''}`}
        onClick={() => toggleSort(column.id)}
      >
        {column.label}
        <span aria-hidden="true">
          {direction === 'ascending' ? '▲' : direction === 'descending' ? '▼' : ''}
        </span>
      </button>
    )
  }
  const filterOf = (column: Review['columns'][number]) => {
    const filter = filters.get(column.id) ?? NO_FILTER
    return (
      <div className="flex min-w-32 flex-col gap-1">
        <select
          aria-label={`Filter ${column.label} by state`}
          className="h-7 rounded-md border bg-background px-1 text-xs font-normal"
          value={filter.state}
          onChange={(event) =>
            setFilter(column.id, { state: event.target.value as ColumnFilter['state'] })
          }
        >
          {STATE_OPTIONS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        <input
          type="search"
          aria-label={`${column.label}: answer contains`}
          placeholder="Contains…"
          className="h-7 rounded-md border bg-background px-1 text-xs font-normal"
          value={filter.contains}
          onChange={(event) => setFilter(column.id, { contains: event.target.value })}
        />
      </div>
    )
  }
  const status = (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <p aria-live="polite" className="text-muted-foreground">
        {ordering
          ? 'Sorting and filtering…'
          : applied.length > 0
            ? `${order.length.toLocaleString('en')} of ${review.rows.toLocaleString('en')} documents`
            : ''}
      </p>
      {(applied.length > 0 || sort) && (
        <button
          type="button"
          className="rounded-md border px-2 py-0.5 text-xs"
          onClick={() => {
            setFilters(new Map())
            setSort(null)
          }}
        >
          Clear
        </button>
      )}
    </div>
  )
  const width = review.columns.length + 1
  const before = items[0]?.start ?? 0
  const after = virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0)
  if (layout === 'list')
    return (
      <div className="flex min-w-0 flex-col gap-2">
        {failed?.error && (
          <p role="alert" className="text-sm text-destructive">
            The cells could not be loaded: {failed.error.message}
          </p>
        )}
        <details className="rounded-md border p-2 text-sm">
          <summary>Sort and filter</summary>
          <ul aria-label="Columns" className="mt-2 flex flex-col gap-2">
            {review.columns.map((column) => (
              <li key={column.id} className="flex flex-col gap-1">
                {sortButton(column)}
                {filterOf(column)}
              </li>
            ))}
          </ul>
        </details>
        {status}
        <div ref={scroller} className="max-h-[70vh] overflow-y-auto rounded-md border">
          {review.rows === 0 && (
            <p className="p-3 text-sm text-muted-foreground">This review has no documents.</p>
          )}
          <ul
            aria-label="Review documents"
            className="text-sm"
            style={{ paddingTop: before, paddingBottom: Math.max(0, after) }}
          >
            {items.map((item) => {
              const row = rowAt(item.index)
              return (
                <li
                  key={row?.rowId ?? `row-${item.index}`}
                  data-index={item.index}
                  ref={virtualizer.measureElement}
                  aria-label={row?.title ?? 'Loading…'}
                  className="border-b p-3"
                >
                  <h2 className="font-medium break-words">{row?.title ?? 'Loading…'}</h2>
                  {row && (
                    <dl className="mt-2 flex flex-col gap-2">
                      {review.columns.map((column, c) => (
                        <div key={column.id} className="min-w-0">
                          <dt className="text-xs text-muted-foreground">{column.label}</dt>
                          <dd className="break-words">
                            {props.renderCell(row, column, navOf(item.index, c))}
                          </dd>
                        </div>
                      ))}
                    </dl>
                  )}
                </li>
              )
            })}
          </ul>
        </div>
      </div>
    )
  return (
    <div className="flex flex-col gap-2">
      {failed?.error && (
        <p role="alert" className="text-sm text-destructive">
          The cells could not be loaded: {failed.error.message}
        </p>
      )}
      {status}
      <div ref={scroller} className="max-h-[70vh] overflow-auto rounded-md border">
        <table
          role="grid"
          aria-label="Review grid"
          className="w-full caption-bottom text-sm"
          onKeyDown={onKeyDown}
        >
          <thead className="sticky top-0 z-10 bg-background">
            <tr className="border-b">
              <th scope="col" className="h-10 px-2 text-left font-medium">
                Document
              </th>
              {review.columns.map((column) => (
                <th
                  key={column.id}
                  scope="col"
                  aria-sort={sort?.columnId === column.id ? sort.direction : 'none'}
                  className="h-10 px-2 text-left font-medium"
                >
                  {sortButton(column)}
                </th>
              ))}
            </tr>
            <tr className="border-b">
              <td className="px-2 pb-2 text-xs text-muted-foreground">Filter</td>
              {review.columns.map((column) => (
                <td key={column.id} className="px-2 pb-2">
                  {filterOf(column)}
                </td>
              ))}
            </tr>
          </thead>
          <tbody>
            <TablePlaceholderRow
              colSpan={width}
              status="success"
              rows={order.length}
              empty={
                review.rows === 0
                  ? 'This review has no documents.'
                  : 'No documents match the filters.'
              }
            />
            {before > 0 && (
              <tr aria-hidden="true">
                <td colSpan={width} style={{ height: before, padding: 0 }} />
              </tr>
            )}
            {items.map((item) => {
              const row = rowAt(item.index)
              return (
                <tr
                  key={row?.rowId ?? `row-${item.index}`}
                  data-index={item.index}
                  ref={virtualizer.measureElement}
                  className="border-b align-top"
                >
                  <td className="p-2">{row ? row.title : 'Loading…'}</td>
                  {review.columns.map((column, c) => (
                    <td key={column.id} className="p-2">
                      {row ? props.renderCell(row, column, navOf(item.index, c)) : null}
                    </td>
                  ))}
                </tr>
              )
            })}
            {after > 0 && (
              <tr aria-hidden="true">
                <td colSpan={width} style={{ height: after, padding: 0 }} />
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </div>
  )
}
