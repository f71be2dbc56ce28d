import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { inOrgScope } from '../../test/in-org-scope'
import { renderWithRouter } from '../../test/render-with-router'
import { jsonResponse, stubFetch } from '../../test/stub-fetch'
import { FakeWebSocket } from '../../test/fake-web-socket'
import type { Review, ReviewCell } from './api'
import { ReviewsPage } from './reviews-page'

const ORG = 'org-1'
const REVIEW = '00000000-0000-4000-8000-0000000000a1'
const NDA = '00000000-0000-4000-8000-000000000d01'
const LEASE = '00000000-0000-4000-8000-000000000d02'
const LAW = '00000000-0000-4000-8000-000000000c01'
const DATE = '00000000-0000-4000-8000-000000000c02'
const base = `/api/v1/orgs/${ORG}/reviews`

const DOCUMENTS = [
  { id: NDA, title: 'Mutual NDA' },
  { id: LEASE, title: 'Office lease' },
].map((d) => ({
  ...d,
  appId: null,
  documentType: 'contract',
  preview: '',
  createdAt: '2026-01-01T00:00:00.000Z',
  textStatus: 'ok' as const,
}))

function review(pending: number): Review {
  return {
    id: REVIEW,
    appId: null,
    name: 'Supplier contracts',
    rowSource: 'selection',
    createdBy: 'user-1',
    createdAt: '2026-01-01T00:00:00.000Z',
    rows: 2,
    columns: [
      {
        id: LAW,
        position: 0,
        label: 'Governing law',
        presetKey: 'term:governingLaw',
        question: null,
        answerType: 'text',
      },
      {
        id: DATE,
        position: 1,
        label: 'Agreement date',
        presetKey: 'term:agreementDate',
        question: null,
        answerType: 'date',
      },
    ],
    cells: {
      total: 4,
      pending,
      running: 0,
      answered: 3 - pending,
      not_found: 1,
      failed: 0,
      unverified: 0,
    },
    fill: { jobId: REVIEW, status: pending ? 'running' : 'succeeded', progress: 0.5 },
  }
}

let n = 0
function cell(documentId: string, columnId: string, fields: Partial<ReviewCell>): ReviewCell {
  n += 1
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    rowId: documentId === NDA ? '00000000-0000-4000-8000-0000000000b1' : LEASE,
    columnId,
    documentId,
    rowPosition: documentId === NDA ? 0 : 1,
    columnPosition: columnId === LAW ? 0 : 1,
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
    ...fields,
  }
}

const ENGLAND = cell(NDA, LAW, {
  state: 'answered',
  answer: { type: 'text', value: 'England and Wales' },
  text: 'England and Wales',
  citations: [{ start: 120, end: 171, text: 'governed by the laws of England and Wales' }],
})
const cellsBefore = [
  ENGLAND,
  cell(NDA, DATE, { state: 'not_found', reason: 'No date of agreement in the text.' }),
  cell(LEASE, LAW, {
    state: 'answered',
    answer: { type: 'text', value: 'Scotland' },
    text: 'Scotland',
  }),
  cell(LEASE, DATE, { state: 'pending' }),
]
const cellsAfter = cellsBefore.map((c, i) =>
  i === 3
    ? {
        ...c,
        state: 'answered' as const,
        answer: { type: 'date' as const, value: '2024-03-01' },
        text: '2024-03-01',
      }
    : c,
)

function renderReviews(path: string) {
  let filled = false
  let checked = false
  let overridden: unknown = null
  const stub = stubFetch({
    [`GET ${base}`]: () =>
      jsonResponse({ items: [review(0)].map(({ id, name }) => ({ id, name })), total: 1 }),
    [`GET ${base}/${REVIEW}`]: () => jsonResponse(review(filled ? 0 : 1)),
    [`GET ${base}/${REVIEW}/cells`]: () =>
      jsonResponse({
        items: (filled ? cellsAfter : cellsBefore).map((c) =>
          c.id === ENGLAND.id
            ? { ...c, verified: checked }
            : c.id === cellsBefore[1]!.id
              ? { ...c, override: overridden }
              : c,
        ),
        total: 4,
      }),
    [`GET /api/v1/orgs/${ORG}/documents`]: () => jsonResponse({ items: DOCUMENTS, total: 2 }),
    [`GET ${base}/presets`]: () =>
      jsonResponse({
        items: [
          { key: 'term:parties', label: 'Parties', answerType: 'party' },
          { key: 'term:agreementDate', label: 'Agreement date', answerType: 'date' },
          { key: 'term:governingLaw', label: 'Governing law', answerType: 'text' },
          { key: 'clause:Cap On Liability', label: 'Cap On Liability', answerType: 'text' },
        ],
      }),
    [`POST ${base}`]: () => jsonResponse(review(4), 201),
    [`POST ${base}/${REVIEW}/columns`]: () =>
      jsonResponse(
        {
          column: {
            id: '00000000-0000-4000-8000-000000000c03',
            position: 2,
            label: 'Parties',
            presetKey: 'term:parties',
            question: null,
            answerType: 'party',
          },
          fillJob: null,
        },
        201,
      ),
    [`PUT ${base}/${REVIEW}/cells/${cellsBefore[1]!.id}/override`]: async (request) => {
      const { override } = (await request.json()) as {
        override: { answer: { value: string } | null } | null
      }
      // The server words the answer (a date's text is its ISO value).
      const text = override?.answer?.value ?? null
      overridden = override && { ...override, text, by: 'user-1', at: '2026-01-02T00:00:00.000Z' }
      return jsonResponse({ ...cellsBefore[1], override: overridden })
    },
    [`PUT ${base}/${REVIEW}/cells/${ENGLAND.id}/verified`]: async (request) => {
      const { verified } = (await request.json()) as { verified: boolean }
      checked = verified
      return jsonResponse({ ...ENGLAND, verified })
    },
  })
  const rendered = renderWithRouter({
    routes: [{ path: '/', element: inOrgScope(<ReviewsPage />) }],
    initialPath: path,
  })
  return { stub, rendered, fill: () => (filled = true) }
}

describe('ReviewsPage', () => {
  it('shows the grid of the review the address opens, and a cell opens its citation', async () => {
    renderReviews(`/?review=${REVIEW}`)
    const grid = await screen.findByRole('grid', { name: 'Review grid' })
    expect(
      await within(grid).findByRole('columnheader', { name: 'Governing law' }),
    ).toBeInTheDocument()
    const row = (await within(grid).findByRole('cell', { name: 'Mutual NDA' })).closest('tr')!
    expect(within(row).getByRole('button', { name: /Agreement date.*Not found/ })).toBeVisible()
    expect(
      screen.getByText('2 documents × 2 questions: 3 of 4 cells answered so far'),
    ).toBeVisible()
    expect(screen.getByRole('progressbar', { name: 'Fill progress' })).toHaveAttribute(
      'aria-valuenow',
      '75',
    )
    expect(screen.getByRole('link', { name: 'Download XLSX' })).toHaveAttribute(
      'href',
      `${base}/${REVIEW}/export?format=xlsx`,
    )

    await userEvent.click(
      within(row).getByRole('button', { name: 'Governing law of Mutual NDA: England and Wales' }),
    )
    const citation = screen.getByRole('complementary', { name: 'Citation' })
    const link = within(citation).getByRole('link', {
      name: '“governed by the laws of England and Wales”',
    })
    expect(link).toHaveAttribute(
      'href',
      `/dashboard/acme-law/documents?document=${NDA}&start=120&end=171`,
    )
    expect(within(citation).getByText('characters 120–171')).toBeVisible()

    await userEvent.click(within(citation).getByRole('button', { name: 'Mark as checked' }))
    expect(await within(citation).findByRole('button', { name: 'Checked' })).toHaveAttribute(
      'aria-pressed',
      'true',
    )
  })

  it("overrides a cell with a lawyer's answer in the column's type, and removes it", async () => {
    const { stub } = renderReviews(`/?review=${REVIEW}`)
    const grid = await screen.findByRole('grid', { name: 'Review grid' })
    await userEvent.click(
      await within(grid).findByRole('button', { name: 'Agreement date of Mutual NDA: Not found' }),
    )
    const citation = screen.getByRole('complementary', { name: 'Citation' })
    await userEvent.click(within(citation).getByRole('button', { name: 'Override' }))
    const form = within(citation).getByRole('form', { name: 'Override' })
    const save = within(form).getByRole('button', { name: 'Save override' })
    // The house form kit: a value that is not of the column's type is refused under its field.
    await userEvent.click(save)
    expect(within(form).getByLabelText('Date')).toHaveAccessibleDescription(
      'Give the date as YYYY-MM-DD.',
    )
    await userEvent.type(within(form).getByLabelText('Date'), '2024-05-31')
    await userEvent.type(within(form).getByLabelText('Note'), 'Side letter')
    await userEvent.click(save)
    expect(
      await within(grid).findByRole('button', { name: 'Agreement date of Mutual NDA: 2024-05-31' }),
    ).toBeVisible()
    expect(within(citation).getByText('Note: Side letter')).toBeVisible()
    const put = stub.requests.filter((r) => r.method === 'PUT')
    expect(await put[0]!.clone().json()).toEqual({
      override: { answer: { type: 'date', value: '2024-05-31' }, note: 'Side letter' },
    })

    await userEvent.click(within(citation).getByRole('button', { name: 'Remove override' }))
    expect(
      await within(grid).findByRole('button', { name: 'Agreement date of Mutual NDA: Not found' }),
    ).toBeVisible()
  })

  it('adds a preset column the review has not yet', async () => {
    const { stub } = renderReviews(`/?review=${REVIEW}`)
    await screen.findByRole('grid', { name: 'Review grid' })
    const select = await screen.findByRole('combobox', { name: 'Preset column' })
    await waitFor(() =>
      expect(
        within(select)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Choose…', 'Parties', 'Cap On Liability']),
    )
    await userEvent.selectOptions(select, 'Parties')
    await userEvent.click(screen.getByRole('button', { name: 'Add column' }))
    await waitFor(() => expect(stub.calls()).toContain(`POST ${base}/${REVIEW}/columns`))
    const post = stub.requests.find((r) => r.url.endsWith('/columns'))!
    expect(await post.clone().json()).toEqual({ preset: 'term:parties' })
  })

  it("reads the cells again when the organisation's channel says the fill wrote some", async () => {
    const { fill } = renderReviews(`/?review=${REVIEW}`)
    const grid = await screen.findByRole('grid', { name: 'Review grid' })
    await within(grid).findByRole('button', { name: /Agreement date of Office lease: Pending/ })
    const socket = await waitFor(() => {
      const opened = FakeWebSocket.opened.at(-1)
      if (!opened) throw new Error('no socket yet')
      return opened
    })
    socket.open()
    fill()
    // Another review's cells change nothing; this one's are read again.
    socket.receive({
      type: 'review_cells',
      reviewId: REVIEW,
      rowId: LEASE,
      cells: [{ id: cellsBefore[3]!.id, columnId: DATE, state: 'answered' }],
      done: 4,
      total: 4,
    })
    expect(
      await within(grid).findByRole('button', {
        name: 'Agreement date of Office lease: 2024-03-01',
      }),
    ).toBeVisible()
  })

  it('reads a burst of the fill’s messages at most once every two seconds, and only the pages holding their rows', async () => {
    const { fill, stub } = renderReviews(`/?review=${REVIEW}`)
    const grid = await screen.findByRole('grid', { name: 'Review grid' })
    await within(grid).findByRole('button', { name: /Agreement date of Office lease: Pending/ })
    const socket = await waitFor(() => {
      const opened = FakeWebSocket.opened.at(-1)
      if (!opened) throw new Error('no socket yet')
      return opened
    })
    socket.open()
    const cellReads = () => stub.calls().filter((c) => c.endsWith(`${REVIEW}/cells`)).length
    const reviewReads = () => stub.calls().filter((c) => c.endsWith(`reviews/${REVIEW}`)).length
    const [cellsAtStart, reviewAtStart] = [cellReads(), reviewReads()]
    const message = (rowId: string) => ({
      type: 'review_cells',
      reviewId: REVIEW,
      rowId,
      cells: [{ id: cellsBefore[3]!.id, columnId: DATE, state: 'answered' }],
      done: 4,
      total: 4,
    })
    // A row on no page read (one the fill added): the review's counts are read again, and the
    // last page, short of a whole one, where the new row lands.
    socket.receive(message('00000000-0000-4000-8000-00000000ffff'))
    await waitFor(() => expect(reviewReads()).toBe(reviewAtStart + 1))
    await waitFor(() => expect(cellReads()).toBe(cellsAtStart + 1))
    // Thirty messages within two seconds of that read: gathered, then one read of the page.
    fill()
    for (let i = 0; i < 30; i++) socket.receive(message(LEASE))
    expect(cellReads()).toBe(cellsAtStart + 1)
    expect(
      await within(grid).findByRole(
        'button',
        { name: 'Agreement date of Office lease: 2024-03-01' },
        { timeout: 4000 },
      ),
    ).toBeVisible()
    expect(cellReads()).toBe(cellsAtStart + 2)
    expect(reviewReads()).toBe(reviewAtStart + 2)
  })

  it('builds a review from chosen documents, presets and a question of its own', async () => {
    const { stub } = renderReviews('/')
    await userEvent.click(await screen.findByRole('button', { name: 'New review' }))
    const form = screen.getByRole('form', { name: 'New review' })
    await userEvent.type(within(form).getByLabelText('Name'), 'Leases')
    await userEvent.click(await within(form).findByRole('checkbox', { name: 'Office lease' }))
    await userEvent.click(within(form).getByRole('checkbox', { name: 'Cap On Liability' }))
    await userEvent.click(within(form).getByRole('checkbox', { name: 'Governing law' }))
    await userEvent.type(
      within(form).getByLabelText('Your own yes/no question'),
      'May the tenant sublet?',
    )
    await userEvent.click(within(form).getByRole('button', { name: 'Add question' }))
    await userEvent.click(within(form).getByRole('button', { name: 'Make the review' }))

    await screen.findByRole('grid', { name: 'Review grid' })
    const post = stub.requests.find((r) => r.method === 'POST')!
    expect(await post.clone().json()).toEqual({
      name: 'Leases',
      rows: { source: 'selection', documentIds: [LEASE] },
      columns: [
        { preset: 'term:parties' },
        { preset: 'term:agreementDate' },
        { preset: 'clause:Cap On Liability' },
        { question: 'May the tenant sublet?', answerType: 'yes_no' },
      ],
    })
  })

  it('moves between cells with the arrow keys, opens a citation with Enter and closes it with Escape', async () => {
    renderReviews(`/?review=${REVIEW}`)
    const grid = await screen.findByRole('grid', { name: 'Review grid' })
    const first = await within(grid).findByRole('button', {
      name: 'Governing law of Mutual NDA: England and Wales',
    })
    const user = userEvent.setup()
    first.focus()
    await user.keyboard('{ArrowRight}')
    expect(
      within(grid).getByRole('button', { name: /^Agreement date of Mutual NDA/ }),
    ).toHaveFocus()
    await user.keyboard('{ArrowLeft}{Enter}')
    expect(first).toHaveFocus()
    const citation = screen.getByRole('complementary', { name: 'Citation' })
    expect(
      await within(citation).findByRole('link', {
        name: '“governed by the laws of England and Wales”',
      }),
    ).toBeVisible()
    // Escape from inside the panel closes it and gives the focus back to the cell.
    within(citation).getByRole('button', { name: 'Mark as checked' }).focus()
    await user.keyboard('{Escape}')
    expect(within(citation).queryByRole('link')).toBeNull()
    expect(
      within(citation).getByText('Open a cell to read where its answer comes from.'),
    ).toBeVisible()
    expect(first).toHaveFocus()
    expect(first).toHaveAttribute('aria-pressed', 'false')
  })

  describe('on a phone (narrower than 768 px)', () => {
    it('lists each document as a card of its answers and their states; a tap opens its citation', async () => {
      window.matchMedia = (query: string) =>
        ({
          matches: query === '(max-width: 767px)',
          media: query,
          addEventListener: () => {},
          removeEventListener: () => {},
        }) as unknown as MediaQueryList
      try {
        renderReviews(`/?review=${REVIEW}`)
        const list = await screen.findByRole('list', { name: 'Review documents' })
        expect(screen.queryByRole('grid', { name: 'Review grid' })).toBeNull()
        const nda = await within(list).findByRole('listitem', { name: 'Mutual NDA' })
        expect(within(nda).getByRole('heading', { name: 'Mutual NDA' })).toBeVisible()
        // Each column: its label, then its answer or state.
        expect(within(nda).getByText('Governing law').tagName).toBe('DT')
        expect(within(nda).getByText('Agreement date').tagName).toBe('DT')
        const law = within(nda).getByRole('button', {
          name: 'Governing law of Mutual NDA: England and Wales',
        })
        expect(law.nextElementSibling).toHaveTextContent('Answered')
        expect(
          within(nda).getByRole('button', { name: 'Agreement date of Mutual NDA: Not found' }),
        ).toBeVisible()
        const lease = within(list).getByRole('listitem', { name: 'Office lease' })
        expect(
          within(lease).getByRole('button', { name: 'Agreement date of Office lease: Pending…' }),
        ).toBeVisible()

        await userEvent.click(law)
        const citation = screen.getByRole('complementary', { name: 'Citation' })
        expect(
          await within(citation).findByRole('link', {
            name: '“governed by the laws of England and Wales”',
          }),
        ).toHaveAttribute('href', `/dashboard/acme-law/documents?document=${NDA}&start=120&end=171`)
      } finally {
        delete (window as Partial<Window>).matchMedia
      }
    })
  })
})
