/**
 * Reads a review again as its fill writes cells (the organisation's `review_cells` realtime
 * messages, one per document written: about 27 a second in a fast fill). Messages are gathered
 * and acted on at most once every CELL_REFRESH_MS (the first at once): the review (its counts and
 * progress) is read again, and of its cells only the cached pages and column reads holding a row a
 * message named; a reconnect (messages may have been missed) reads the whole review again.
 */
import { useEffect, useRef } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { useReviewCellMessages } from '../../hooks/realtime'
import { reviewsKey } from './api'

/** Least time (ms) between two reads caused by the fill's messages. */
export const CELL_REFRESH_MS = 2000

/** Whether cached cells `data` (a page `{ items }` or a column's cell list) hold a row of `rows`. */
function holdsRow(data: unknown, rows: ReadonlySet<string>): boolean {
  const items = Array.isArray(data) ? data : (data as { items?: unknown } | undefined)?.items
  return (
    Array.isArray(items) &&
    items.some((cell) => rows.has((cell as { rowId?: string } | null)?.rowId ?? ''))
  )
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
    void queryClient.invalidateQueries({
      queryKey: [...reviewKey, 'cells'],
      predicate: (query) => holdsRow(query.state.data, rows),
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
