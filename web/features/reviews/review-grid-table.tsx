import { useMemo, useRef, type ReactNode } from 'react'
import { useQueries } from '@tanstack/react-query'
import { measureElement, observeElementRect, useVirtualizer } from '@tanstack/react-virtual'
import { TablePlaceholderRow } from '../../components/table-placeholder-row'
import { reviewCellsPageQuery, rowsPerPage, type Review, type ReviewCell } from './api'

/** A row's height before it is measured (px): one line of text with the cell's padding. */
const ROW_ESTIMATE = 41
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
  cells: Map<string, ReviewCell>
}

/**
 * The review grid as a table whose body renders only the rows in view (TanStack Virtual; the
 * issue names it): 1,000 documents × 20 questions renders some 30 rows, not 20,000 cells. The
 * cells are read a page at a time (reviewCellsPageQuery: as many whole rows as fit in the
 * server's page of 1,000 cells), only the pages of the rows in view. Columns are not virtualised
 * (a review has at most 50). `renderCell` draws a cell (undefined while its page loads);
 * `titleOf` names a row's document.
 */
export function ReviewGridTable(props: {
  orgId: string
  review: Review
  titleOf(documentId: string): string
  renderCell(row: GridRow, column: Review['columns'][number]): ReactNode
}) {
  const { orgId, review } = props
  const scroller = useRef<HTMLDivElement>(null)
  // TanStack Virtual's functions are not memoizable; this component passes only measureElement,
  // as a ref, and to no memoized component.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: review.rows,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_ESTIMATE,
    overscan: OVERSCAN,
    initialRect: INITIAL_RECT,
    observeElementRect: (instance, report) =>
      observeElementRect(instance, (rect) => report(rect.height > 0 ? rect : INITIAL_RECT)),
    // A row measured as nothing (jsdom) keeps its estimate.
    measureElement: (element, entry, instance) =>
      measureElement(element, entry, instance) || ROW_ESTIMATE,
  })
  const items = virtualizer.getVirtualItems()
  const perPage = rowsPerPage(review.columns.length)
  const pages = useMemo(() => {
    const wanted = new Set(items.map((item) => Math.floor(item.index / perPage)))
    return [...wanted].sort((a, b) => a - b)
  }, [items, perPage])
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
          last = { index, rowId: cell.rowId, documentId: cell.documentId, cells: new Map() }
          byIndex.set(index, last)
        }
        last.cells.set(cell.columnId, cell)
      }
    })
    return byIndex
  }, [pages, reads, perPage])
  const failed = reads.find((read) => read.status === 'error')
  const width = review.columns.length + 1
  const before = items[0]?.start ?? 0
  const after = virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0)
  return (
    <div className="flex flex-col gap-2">
      {failed?.error && (
        <p role="alert" className="text-sm text-destructive">
          The cells could not be loaded: {failed.error.message}
        </p>
      )}
      <div ref={scroller} className="max-h-[70vh] overflow-auto rounded-md border">
        <table aria-label="Review grid" className="w-full caption-bottom text-sm">
          <thead className="sticky top-0 z-10 bg-background">
            <tr className="border-b">
              <th scope="col" className="h-10 px-2 text-left font-medium">
                Document
              </th>
              {review.columns.map((column) => (
                <th key={column.id} scope="col" className="h-10 px-2 text-left font-medium">
                  {column.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            <TablePlaceholderRow
              colSpan={width}
              status="success"
              rows={review.rows}
              empty="This review has no documents."
            />
            {before > 0 && (
              <tr aria-hidden="true">
                <td colSpan={width} style={{ height: before, padding: 0 }} />
              </tr>
            )}
            {items.map((item) => {
              const row = rowsByIndex.get(item.index)
              return (
                <tr
                  key={row?.rowId ?? `row-${item.index}`}
                  data-index={item.index}
                  ref={virtualizer.measureElement}
                  className="border-b align-top"
                >
                  <td className="p-2">{row ? props.titleOf(row.documentId) : 'Loading…'}</td>
                  {review.columns.map((column) => (
                    <td key={column.id} className="p-2">
                      {row ? props.renderCell(row, column) : null}
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
