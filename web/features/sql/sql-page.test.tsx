import { fireEvent, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { inOrgScope } from '../../test/in-org-scope'
import { renderWithRouter } from '../../test/render-with-router'
import { jsonResponse, problemResponse, stubFetch } from '../../test/stub-fetch'
import type { SqlResult } from './api'
import { SqlPage } from './sql-page'

const ORG = 'org-1'
const BASE = `/api/v1/orgs/${ORG}/sql`

const result: SqlResult = {
  columns: [
    { name: 'title', type: 'text' },
    { name: 'n', type: 'integer' },
  ],
  rows: [
    ['Lease', 5],
    [null, 0],
  ],
  rowCount: 2,
  truncated: false,
  rowCap: 1000,
  cost: 12,
  durationMs: 7,
}

function stubRunner(answer: () => Response = () => jsonResponse(result)) {
  return stubFetch({
    [`GET ${BASE}/history`]: () =>
      jsonResponse({
        items: [
          {
            id: crypto.randomUUID(),
            sql: 'select 1 as earlier',
            rowCount: 1,
            durationMs: 3,
            error: null,
            createdAt: '2026-11-26T09:00:00Z',
          },
        ],
        views: ['sql_documents', 'sql_entities'],
      }),
    [`POST ${BASE}`]: answer,
    [`POST ${BASE}/csv`]: () =>
      new Response('"title"\r\n"Lease"\r\n', { headers: { 'content-type': 'text/csv' } }),
  })
}

function renderPage() {
  return renderWithRouter({ element: inOrgScope(<SqlPage />, { orgId: ORG }) })
}

describe('SqlPage', () => {
  it('runs the query on Ctrl+Enter and shows rows, column types, row count and time', async () => {
    const user = userEvent.setup()
    const { requests } = stubRunner()
    renderPage()
    const editor = await screen.findByLabelText('Query')
    await user.clear(editor)
    await user.type(editor, 'select title, n from sql_documents')
    fireEvent.keyDown(editor, { key: 'Enter', ctrlKey: true })
    const table = await screen.findByRole('table')
    const headers = within(table).getAllByRole('columnheader')
    expect(headers.map((h) => h.textContent)).toEqual(['titletext', 'ninteger'])
    expect(
      within(table)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['Lease', '5', 'NULL', '0'])
    expect(screen.getByRole('status')).toHaveTextContent('2 rows in 7 ms')
    const sent = requests.find((r) => r.method === 'POST')
    expect(await sent?.json()).toEqual({ sql: 'select title, n from sql_documents' })
    expect(screen.getByText(/sql_documents, sql_entities/)).toBeInTheDocument()
    expect(screen.getByText(/At most 1,000 rows/)).toBeInTheDocument()
  })

  it('runs on ⌘+Enter too, and says when rows were cut at the cap', async () => {
    stubRunner(() => jsonResponse({ ...result, truncated: true }))
    renderPage()
    fireEvent.keyDown(await screen.findByLabelText('Query'), { key: 'Enter', metaKey: true })
    expect(await screen.findByRole('status')).toHaveTextContent('only the first 1,000 are shown')
  })

  it('shows the server’s words when a query is refused', async () => {
    const user = userEvent.setup()
    stubRunner(
      () =>
        new Response(
          JSON.stringify({
            status: 400,
            code: 'sql_refused',
            detail: 'The function pg_sleep is not allowed in the SQL runner.',
          }),
          { status: 400, headers: { 'content-type': 'application/problem+json' } },
        ),
    )
    renderPage()
    await user.click(await screen.findByRole('button', { name: 'Run' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('pg_sleep is not allowed')
  })

  it('downloads the CSV of the query shown', async () => {
    const user = userEvent.setup()
    const created = vi.fn(() => 'blob:csv')
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() }))
    const { requests } = stubRunner()
    renderPage()
    const exportButton = await screen.findByRole('button', { name: 'Export CSV' })
    expect(exportButton).toBeDisabled()
    await user.click(screen.getByRole('button', { name: 'Run' }))
    await screen.findByRole('table')
    await user.click(exportButton)
    await vi.waitFor(() => expect(created).toHaveBeenCalled())
    const csv = requests.find((r) => r.url.endsWith('/sql/csv'))
    expect(csv).toBeDefined()
  })

  it('puts a query of the history back in the editor', async () => {
    const user = userEvent.setup()
    stubRunner()
    renderPage()
    await user.click(await screen.findByRole('button', { name: /select 1 as earlier/ }))
    expect(screen.getByLabelText('Query')).toHaveValue('select 1 as earlier')
  })

  it("says why the last queries could not be loaded, not 'None yet.', and keeps the editor", async () => {
    stubFetch({ [`GET ${BASE}/history`]: () => problemResponse(503, 'The database is restarting') })
    renderPage()
    const history = await screen.findByRole('region', { name: 'Your last queries' })
    expect(await within(history).findByRole('alert')).toHaveTextContent(
      'They could not be loaded: The database is restarting',
    )
    expect(within(history).queryByText('None yet.')).toBeNull()
    expect(screen.getByLabelText('Query')).toBeEnabled()
  })

  it('tells a member that only owners and admins use the SQL runner', async () => {
    stubFetch({
      [`GET ${BASE}/history`]: () =>
        new Response(
          JSON.stringify({ title: 'Forbidden', status: 403, detail: 'No', code: 'forbidden' }),
          { status: 403, headers: { 'content-type': 'application/problem+json' } },
        ),
    })
    renderPage()
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Only owners and admins can use the SQL runner.',
    )
    expect(screen.queryByLabelText('Query')).toBeNull()
  })
})
