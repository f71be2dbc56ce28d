import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
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

/** The cell at grid index `i` (row-major, `columns` a row), pending. */
function cellAt(i: number, columns = COLUMNS): ReviewCell {
  const row = Math.floor(i / columns)
  const column = i % columns
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
    text: null,
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
    const titles = new Map(
      Array.from({ length: ROWS }, (_, i) => [uuid('b000', i), `Document ${i}`] as const),
    )
    renderWithRouter({
      element: (
        <ReviewGridTable
          orgId={ORG}
          review={review}
          titles={titles}
          renderCell={(row, column) => row.cells.get(column.id)?.state ?? null}
        />
      ),
    })
    const grid = await screen.findByRole('grid', { name: 'Review grid' })
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

  it('reads the titles of rows in view past the documents it was given, a page of rows a request', async () => {
    const stub = stubFetch((request) => {
      const path = new URL(request.url).pathname
      const query = new URL(request.url).searchParams
      if (path === `/api/v1/orgs/${ORG}/reviews/${REVIEW}/cells`) {
        const offset = Number(query.get('offset'))
        const limit = Number(query.get('limit'))
        const items = Array.from({ length: limit }, (_, i) => cellAt(offset + i))
        return jsonResponse({ items, total: ROWS * COLUMNS })
      }
      if (path === `/api/v1/orgs/${ORG}/documents` && query.has('ids')) {
        const ids = query.get('ids')!.split(',')
        const items = ids.map((id) => ({ id, title: `Contract ${Number(id.slice(-12))}` }))
        return jsonResponse({ items, total: items.length, types: [] })
      }
      return undefined
    })
    // The builder's latest 200 documents: rows 0–199.
    const titles = new Map(
      Array.from({ length: 200 }, (_, i) => [uuid('b000', i), `Latest ${i}`] as const),
    )
    renderWithRouter({
      element: (
        <ReviewGridTable
          orgId={ORG}
          review={review}
          titles={titles}
          renderCell={(row, column) => row.cells.get(column.id)?.state ?? null}
        />
      ),
    })
    const grid = await screen.findByRole('grid', { name: 'Review grid' })
    expect(await within(grid).findByText('Latest 0')).toBeVisible()
    const documentReads = () =>
      stub.requests
        .filter((r) => new URL(r.url).pathname.includes('/documents'))
        .map((r) => new URL(r.url).searchParams)
    expect(documentReads()).toEqual([])

    const scroller = grid.parentElement!
    scroller.scrollTop = 600 * 41
    fireEvent.scroll(scroller)
    expect(await within(grid).findByText('Contract 600')).toBeVisible()
    // One request names every row of the page of cells drawn (rows 600–649: 20 columns, 50 rows
    // a page of 1,000 cells), never a document it was given nor one document at a time.
    const reads = documentReads()
    expect(stub.calls().filter((c) => /\/documents\/[\w-]+$/.test(c))).toEqual([])
    expect(reads.length).toBeLessThanOrEqual(2)
    const page = reads.find((q) => q.get('ids')!.split(',').includes(uuid('b000', 600)))!
    expect(page.get('ids')!.split(',')).toEqual(
      Array.from({ length: 50 }, (_, i) => uuid('b000', 600 + i)),
    )
    expect(page.get('limit')).toBe('50')
    expect(within(grid).getByText('Contract 601')).toBeVisible()
  })

  it('moves the focused cell with the arrow keys, one cell in the tab order', async () => {
    stubFetch({
      [`GET /api/v1/orgs/${ORG}/reviews/${REVIEW}/cells`]: (request) => {
        const query = new URL(request.url).searchParams
        const offset = Number(query.get('offset'))
        const limit = Number(query.get('limit'))
        const items = Array.from({ length: Math.min(limit, 300 - offset) }, (_, i) =>
          cellAt(offset + i, 3),
        )
        return jsonResponse({ items, total: 300 })
      },
    })
    const titles = new Map(
      Array.from({ length: ROWS }, (_, i) => [uuid('b000', i), `Document ${i}`] as const),
    )
    // 100 documents × 3 questions: few cells, so many key presses stay quick in jsdom.
    const narrow = { ...review, rows: 100, columns: review.columns.slice(0, 3) }
    renderWithRouter({
      element: (
        <ReviewGridTable
          orgId={ORG}
          review={narrow}
          titles={titles}
          renderCell={(row, column, nav) => (
            <button type="button" {...nav}>
              {`${row.index}/${column.position}`}
            </button>
          )}
        />
      ),
    })
    const grid = await screen.findByRole('grid', { name: 'Review grid' })
    await within(grid).findByText('0/0')
    expect(grid.querySelectorAll('button[tabindex="0"]')).toHaveLength(1)
    const user = userEvent.setup()
    // Tab passes the header's 3 sort buttons and 3 filters (a state and a text box each).
    for (let i = 0; i < 10; i += 1) await user.tab()
    expect(document.activeElement).toHaveTextContent('0/0')
    await user.keyboard('{ArrowRight}{ArrowRight}{ArrowDown}')
    expect(document.activeElement).toHaveTextContent('1/2')
    await user.keyboard('{ArrowLeft}{ArrowUp}{ArrowUp}')
    // Stops at the first row.
    expect(document.activeElement).toHaveTextContent('0/1')
    expect(document.activeElement).toHaveAttribute('tabindex', '0')
    expect(grid.querySelectorAll('button[tabindex="0"]')).toHaveLength(1)
    // Down past the rows drawn: the grid scrolls and the cell takes the focus once drawn. jsdom
    // lays nothing out: the scroll box gets a browser's heights, and scrollTo sets scrollTop and
    // announces it, as a browser does.
    const scroller = grid.parentElement!
    Object.defineProperty(scroller, 'scrollHeight', { value: 100 * 41 + 40 })
    Object.defineProperty(scroller, 'clientHeight', { value: 720 })
    const scrollTo = Element.prototype.scrollTo
    Element.prototype.scrollTo = function (this: Element, options?: ScrollToOptions | number) {
      if (typeof options === 'object' && options.top !== undefined) this.scrollTop = options.top
      this.dispatchEvent(new Event('scroll'))
    } as Element['scrollTo']
    try {
      for (let i = 0; i < 40; i += 1) await user.keyboard('{ArrowDown}')
      await waitFor(() => expect(document.activeElement).toHaveTextContent('40/1'))
      expect(within(grid).queryByText('0/0')).toBeNull()
    } finally {
      Element.prototype.scrollTo = scrollTo
    }
  })
})

describe('ReviewGridTable sort and filter', () => {
  // 5 documents × 2 questions: an agreement date (row 3's still pending) and the parties.
  const DATES = ['2021-03-01', '2019-12-31', '2024-01-15', null, '2020-06-30']
  const PARTIES = ['Acme Ltd', 'Borealis SA', 'Acme Holdings', 'Cobalt plc', 'Delta GmbH']
  const small: Review = {
    ...review,
    rows: 5,
    columns: [
      { ...review.columns[0]!, label: 'Agreement date', answerType: 'date' as const },
      { ...review.columns[1]!, label: 'Parties', answerType: 'party' as const },
    ],
  }
  /** The cell at grid index `i` of the 5 × 2 grid: answered, but for row 3's date. */
  const smallCell = (i: number): ReviewCell => {
    const cell = cellAt(i, 2)
    const date = DATES[cell.rowPosition]
    if (cell.columnPosition === 0)
      return date
        ? { ...cell, state: 'answered', answer: { type: 'date', value: date }, text: date }
        : cell
    return {
      ...cell,
      state: 'answered',
      answer: { type: 'party', names: [PARTIES[cell.rowPosition]!] },
      text: PARTIES[cell.rowPosition]!,
    }
  }
  const renderSmall = (layout: 'table' | 'list' = 'table') => {
    const stub = stubFetch({
      [`GET /api/v1/orgs/${ORG}/reviews/${REVIEW}/cells`]: (request) => {
        const query = new URL(request.url).searchParams
        const offset = Number(query.get('offset'))
        const limit = Number(query.get('limit'))
        const columnId = query.get('columnId')
        const all = Array.from({ length: 10 }, (_, i) => smallCell(i)).filter(
          (c) => !columnId || c.columnId === columnId,
        )
        return jsonResponse({ items: all.slice(offset, offset + limit), total: all.length })
      },
    })
    const titles = new Map(
      Array.from({ length: 5 }, (_, i) => [uuid('b000', i), `Document ${i}`] as const),
    )
    renderWithRouter({
      element: (
        <ReviewGridTable
          orgId={ORG}
          review={small}
          titles={titles}
          layout={layout}
          renderCell={(row, column) => row.cells.get(column.id)?.state ?? null}
        />
      ),
    })
    return stub
  }
  const drawnTitles = (grid: HTMLElement) =>
    [...grid.querySelectorAll('tbody tr[data-index] td:first-child')].map((td) => td.textContent)

  it('sorts the rows by a date column by keyboard, pending last, and again reverses', async () => {
    const stub = renderSmall()
    const grid = await screen.findByRole('grid', { name: 'Review grid' })
    await within(grid).findByText('Document 4')
    const header = screen.getByRole('columnheader', { name: /Agreement date/ })
    expect(header).toHaveAttribute('aria-sort', 'none')
    const user = userEvent.setup()
    await user.tab()
    expect(document.activeElement).toHaveAccessibleName('Sort by Agreement date')
    await user.keyboard('{Enter}')
    await waitFor(() =>
      expect(drawnTitles(grid)).toEqual([
        'Document 1',
        'Document 4',
        'Document 0',
        'Document 2',
        'Document 3',
      ]),
    )
    expect(header).toHaveAttribute('aria-sort', 'ascending')
    // The column's cells, read with its id.
    expect(
      stub.requests.some(
        (r) => new URL(r.url).searchParams.get('columnId') === small.columns[0]!.id,
      ),
    ).toBe(true)
    await user.keyboard('{Enter}')
    await waitFor(() =>
      expect(drawnTitles(grid)).toEqual([
        'Document 2',
        'Document 0',
        'Document 4',
        'Document 1',
        'Document 3',
      ]),
    )
    expect(header).toHaveAttribute('aria-sort', 'descending')
  })

  it('draws the phone list in the same order and filter', async () => {
    renderSmall('list')
    const list = await screen.findByRole('list', { name: 'Review documents' })
    await within(list).findByText('Document 4')
    const user = userEvent.setup()
    await user.click(screen.getByText('Sort and filter'))
    await user.click(screen.getByRole('button', { name: 'Sort by Agreement date' }))
    await user.type(screen.getByRole('searchbox', { name: 'Parties: answer contains' }), 'b')
    // "b": Borealis SA, Cobalt plc, Delta GmbH; the pending date (row 3) last.
    await waitFor(() =>
      expect(
        within(list)
          .getAllByRole('listitem')
          .map((item) => item.getAttribute('aria-label')),
      ).toEqual(['Document 1', 'Document 4', 'Document 3']),
    )
    expect(screen.getByText('3 of 5 documents')).toBeVisible()
  })

  it('hides the rows whose answer does not contain the text typed, counts them, and clears', async () => {
    renderSmall()
    const grid = await screen.findByRole('grid', { name: 'Review grid' })
    await within(grid).findByText('Document 4')
    const user = userEvent.setup()
    // Past the 2 sort buttons, the date's state and text, the parties' state.
    for (let i = 0; i < 6; i += 1) await user.tab()
    expect(document.activeElement).toHaveAccessibleName('Parties: answer contains')
    await user.keyboard('acme')
    await waitFor(() => expect(drawnTitles(grid)).toEqual(['Document 0', 'Document 2']))
    expect(screen.getByText('2 of 5 documents')).toBeVisible()
    // The Clear button sits above the grid, before the filters in the tab order.
    for (let i = 0; i < 6; i += 1) await user.tab({ shift: true })
    expect(document.activeElement).toHaveAccessibleName('Clear')
    await user.keyboard('{Enter}')
    await waitFor(() => expect(drawnTitles(grid)).toHaveLength(5))
    expect(screen.queryByText('2 of 5 documents')).toBeNull()
  })
})
