/**
 * Reads a review again as its fill writes cells (the organisation's `review_cells` realtime
 * messages, one per document written: about 27 a second in a fast fill). Messages are gathered
 * and acted on at most once every CELL_REFRESH_MS (the first at once): the review (its counts and
 * progress) is read again, and of its cells only the cached pages and column reads holding a row a
 * message named, and, when a named row is on none (a row the fill added), those it may land on;
 * a reconnect (messages may have been missed) reads the whole review again.
 */
import { useEffect, useRef } from 'react'
import { useQueryClient, type Query } from '@tanstack/react-query'
import { useReviewCellMessages } from '../../hooks/realtime'
import { reviewsKey, rowsPerPage } from './api'

/** Least time (ms) between two reads caused by the fill's messages. */
export const CELL_REFRESH_MS = 2000

/** The cells of cached `data` (a page `{ items }` or a column's cell list), or none. */
function cellsOf(data: unknown): unknown[] {
  const items = Array.isArray(data) ? data : (data as { items?: unknown } | undefined)?.items
  return Array.isArray(items) ? items : []
}

/** Whether cached cells `data` hold a row of `rows`. */
function holdsRow(data: unknown, rows: ReadonlySet<string>): boolean {
  return cellsOf(data).some((cell) => rows.has((cell as { rowId?: string } | null)?.rowId ?? ''))
}

/**
 * Whether the cached cells of `query` may gain a new row (one the fill added to an app's review):
 * a column's cells (read to the last row) or a page shorter than its whole (the last page).
 */
function mayGrow(query: Query): boolean {
  const key = query.queryKey
  if (key.at(-2) === 'column') return true
  const columns = Math.max(1, Number(key.at(-2)) || 1)
  return cellsOf(query.state.data).length < rowsPerPage(columns) * columns
}

/** Follows review `reviewId`'s fill while `enabled` (see the module comment). */
export function useReviewCellRefresh(orgId: string, reviewId: string, enabled: boolean): void {
  const queryClient = useQueryClient()
  const waiting = useRef({ rows: new Set<string>(), all: false, last: 0 })
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  // A timer runs the flush of the render that set it: a change of review clears it (below).
  const flush = () => {
    timer.current = undefined
    const { rows, all } = waiting.current
    waiting.current = { rows: new Set(), all: false, last: Date.now() }
    const reviewKey = [...reviewsKey(orgId), reviewId]
    if (all) {
      void queryClient.invalidateQueries({ queryKey: reviewKey })
      return
    }
    void queryClient.invalidateQueries({ queryKey: reviewKey, exact: true })
    const cellsKey = [...reviewKey, 'cells']
    // A row on no cached page is new (an app's review grows as documents arrive): the pages it
    // may land on are read again too.
    const cached = queryClient.getQueriesData({ queryKey: cellsKey }).map(([, data]) => data)
    const unseen = [...rows].some((row) => !cached.some((data) => holdsRow(data, new Set([row]))))
    void queryClient.invalidateQueries({
      queryKey: cellsKey,
      predicate: (query) => holdsRow(query.state.data, rows) || (unseen && mayGrow(query)),
    })
  }
  // Another review (or organisation) starts afresh: nothing gathered for the last one is read.
  useEffect(
    () => () => {
      clearTimeout(timer.current)
      timer.current = undefined
      waiting.current = { rows: new Set(), all: false, last: 0 }
    },
    [orgId, reviewId],
  )
  useReviewCellMessages(
    orgId,
    (message) => {
      if (message && message.reviewId !== reviewId) return
      if (message) waiting.current.rows.add(message.rowId)
      else waiting.current.all = true
      if (timer.current !== undefined) return
      const wait = Math.max(0, waiting.current.last + CELL_REFRESH_MS - Date.now())
      timer.current = setTimeout(flush, wait)
    },
    enabled,
  )
}
