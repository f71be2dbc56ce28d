import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderWithRouter } from '../../test/render-with-router'
import { jsonResponse, stubFetch } from '../../test/stub-fetch'
import type { Review, ReviewCell } from './api'
import { ReviewGridTable } from './review-grid-table'

const ORG = 'org-1'
const REVIEW = '00000000-0000-4000-8000-0000000000a1'
const ROWS = 1000
const COLUMNS = 20

const uuid = (prefix: string, n: number) =>
  `00000000-0000-4000-${prefix}-${String(n).padStart(12, '0')}`

const review: Review = {
  id: REVIEW,
  appId: null,
  name: 'Big review',
  rowSource: 'selection',
  createdBy: 'user-1',
  createdAt: '2026-01-01T00:00:00.000Z',
  rows: ROWS,
  columns: Array.from({ length: COLUMNS }, (_, i) => ({
    id: uuid('8000', i),
    position: i,
    label: `Question ${i}`,
    presetKey: null,
    question: `Question ${i}`,
    answerType: 'text' as const,
  })),
  cells: {
    total: ROWS * COLUMNS,
    pending: ROWS * COLUMNS,
    running: 0,
    answered: 0,
    not_found: 0,
    failed: 0,
    unverified: 0,
  },
  fill: null,
}

/** The cell at grid index `i` (row-major), pending. */
function cellAt(i: number): ReviewCell {
  const row = Math.floor(i / COLUMNS)
  const column = i % COLUMNS
  return {
    id: uuid('9000', i),
    rowId: uuid('a000', row),
    columnId: uuid('8000', column),
    documentId: uuid('b000', row),
    rowPosition: row,
    columnPosition: column,
    state: 'pending',
    reason: null,
    answer: null,
    citations: [],
    override: null,
    verified: false,
    verifiedBy: null,
    verifiedAt: null,
    answeredAt: null,
  }
}

describe('ReviewGridTable', () => {
  it('renders only the rows in view of 1,000 × 20, and reads the page of cells they are in as it scrolls', async () => {
    const stub = stubFetch({
      [`GET /api/v1/orgs/${ORG}/reviews/${REVIEW}/cells`]: (request) => {
        const query = new URL(request.url).searchParams
        const offset = Number(query.get('offset'))
        const limit = Number(query.get('limit'))
        const items = Array.from({ length: limit }, (_, i) => cellAt(offset + i))
        return jsonResponse({ items, total: ROWS * COLUMNS })
      },
    })
    const titleOf = (documentId: string) => `Document ${Number(documentId.slice(-12))}`
    renderWithRouter({
      element: (
        <ReviewGridTable
          orgId={ORG}
          review={review}
          titleOf={titleOf}
          renderCell={(row, column) => row.cells.get(column.id)?.state ?? null}
        />
      ),
    })
    const grid = await screen.findByRole('table', { name: 'Review grid' })
    // Text queries: role queries over some 500 cells are slow in jsdom.
    expect(await within(grid).findByText('Document 0')).toBeVisible()
    const bodyRows = () => grid.querySelectorAll('tbody tr[data-index]').length
    expect(bodyRows()).toBeGreaterThan(5)
    expect(bodyRows()).toBeLessThan(60)
    // One page: 50 whole rows of 20 cells, the server's ceiling of 1,000.
    const reads = () =>
      stub.requests.map((r) => {
        const query = new URL(r.url).searchParams
        return [query.get('offset'), query.get('limit')]
      })
    expect(reads()).toEqual([['0', '1000']])

    // Scrolled to about row 600: that row's page (rows 600–649) is read and its rows shown.
    const scroller = grid.parentElement!
    scroller.scrollTop = 600 * 41
    fireEvent.scroll(scroller)
    expect(await within(grid).findByText('Document 600')).toBeVisible()
    await waitFor(() => expect(reads()).toContainEqual(['12000', '1000']))
    expect(within(grid).queryByText('Document 0')).toBeNull()
    expect(bodyRows()).toBeLessThan(60)
  })
})
