import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderWithRouter } from '../../../test/render-with-router'
import { jsonResponse, problemResponse, stubFetch } from '../../../test/stub-fetch'
import type { Entity } from '../api/entities-api'
import { EntitiesScreen } from './entities-screen'

const ORG = 'org-1'
const BASE = `/api/v1/orgs/${ORG}/entities`

function entity(overrides: Partial<Entity>): Entity {
  return {
    id: crypto.randomUUID(),
    orgId: ORG,
    appId: null,
    type: 'item',
    name: 'Acme',
    data: {},
    createdAt: '2026-11-23T10:00:00.000Z',
    ...overrides,
  }
}

const page = (items: Entity[], total = items.length) => jsonResponse({ items, total })
const renderScreen = () =>
  renderWithRouter({ element: <EntitiesScreen scope={{ orgId: ORG, appId: null }} manages /> })
const listQueries = (requests: Request[]) =>
  requests
    .filter((r) => r.method === 'GET' && new URL(r.url).pathname === BASE)
    .map((r) => new URL(r.url).searchParams)

afterEach(() => vi.useRealTimers())

describe('EntitiesScreen', () => {
  it("shows rows, default columns, data columns and the footer; 'No entities.' when empty", async () => {
    stubFetch({
      [`GET ${BASE}`]: () => page([entity({ name: 'Acme', data: { city: 'Paris' } })], 120),
    })
    renderScreen()
    expect(await screen.findByRole('textbox', { name: 'name of Acme' })).toHaveValue('Acme')
    expect(screen.getByRole('button', { name: 'Sort by data.city' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Sort by org_id' })).not.toBeInTheDocument()
    expect(screen.getByText('Rows: 1 / 120')).toBeInTheDocument()
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument()
    expect(screen.getByRole('option', { name: '50/page' })).toHaveProperty('selected', true)
  })

  it('holds the linked entity alone (an audit link) until "Show all"', async () => {
    const linked = entity({ name: 'Linked Ltd' })
    const { requests } = stubFetch({
      [`GET ${BASE}`]: (request) =>
        new URL(request.url).searchParams.get('id') === linked.id
          ? page([linked])
          : page([linked, entity({ name: 'Other plc' })]),
    })
    renderWithRouter({
      routes: [
        {
          path: '/entities',
          element: <EntitiesScreen scope={{ orgId: ORG, appId: null }} manages />,
        },
      ],
      initialPath: `/entities?entity=${linked.id}`,
    })
    expect(await screen.findByRole('textbox', { name: 'name of Linked Ltd' })).toBeInTheDocument()
    expect(screen.queryByRole('textbox', { name: 'name of Other plc' })).not.toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toContain(
      `id=${linked.id}`,
    )
    await userEvent.click(screen.getByRole('button', { name: 'Show all' }))
    expect(await screen.findByRole('textbox', { name: 'name of Other plc' })).toBeInTheDocument()
    expect(listQueries(requests).map((q) => q.get('id'))).toEqual([linked.id, null])
  })

  it("offers a member neither CSV import nor 'Delete Selected', the admin-only requests", async () => {
    stubFetch({ [`GET ${BASE}`]: () => page([entity({ name: 'Acme' })]) })
    renderWithRouter({
      element: <EntitiesScreen scope={{ orgId: ORG, appId: null }} manages={false} />,
    })
    expect(await screen.findByRole('textbox', { name: 'name of Acme' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Import CSV' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Delete Selected' })).toBeNull()
    expect(screen.getByRole('button', { name: 'Delete Acme' })).toBeInTheDocument()
  })

  it("says 'No entities.' for an empty list", async () => {
    stubFetch({ [`GET ${BASE}`]: () => page([]) })
    renderScreen()
    expect(await screen.findByText('No entities.')).toBeInTheDocument()
    expect(screen.getByText('Page 1 of 1')).toBeInTheDocument()
  })

  it("says why the list failed, without a contradicting 'No entities.'", async () => {
    stubFetch({ [`GET ${BASE}`]: () => problemResponse(503, 'The database is restarting') })
    renderScreen()
    expect(await screen.findByRole('alert')).toHaveTextContent('The database is restarting')
    expect(screen.queryByText('No entities.')).toBeNull()
    expect(screen.queryByText('Loading…')).toBeNull()
  })

  it('reloads a search only after a 300 ms pause', async () => {
    const { requests } = stubFetch({ [`GET ${BASE}`]: () => page([]) })
    renderScreen()
    await screen.findByText('No entities.')
    // Fake timers from here on (only the clock; the answers are promises): the debounce's timer
    // is created after this point, so it runs on the fake clock alone.
    vi.useFakeTimers()
    const box = screen.getByRole('searchbox', { name: 'Search entities' })
    fireEvent.change(box, { target: { value: 'ac' } })
    await act(() => vi.advanceTimersByTimeAsync(200))
    fireEvent.change(box, { target: { value: 'acme' } })
    await act(() => vi.advanceTimersByTimeAsync(299))
    expect(listQueries(requests).map((q) => q.get('q'))).toEqual([null])
    await act(() => vi.advanceTimersByTimeAsync(1))
    vi.useRealTimers()
    await waitFor(() =>
      expect(listQueries(requests).map((q) => q.get('q'))).toEqual([null, 'acme']),
    )
  })

  it('sorts by a clicked header: ascending and first, then descending, then removed', async () => {
    const { requests } = stubFetch({ [`GET ${BASE}`]: () => page([entity({ name: 'Acme' })]) })
    renderScreen()
    const header = await screen.findByRole('button', { name: 'Sort by name' })
    await userEvent.click(header)
    await userEvent.click(screen.getByRole('button', { name: 'Sort by type' }))
    await userEvent.click(screen.getByRole('button', { name: 'Sort by type' }))
    await userEvent.click(screen.getByRole('button', { name: 'Sort by type' }))
    await waitFor(() =>
      expect(listQueries(requests).map((q) => q.get('sort'))).toEqual([
        'created_at:desc',
        'name:asc',
        'type:asc,name:asc',
        'type:desc,name:asc',
        'name:asc',
      ]),
    )
  })

  it('clamps the page number to the last page and clears the selection on a page change', async () => {
    const { requests } = stubFetch({ [`GET ${BASE}`]: () => page([entity({ name: 'Acme' })], 120) })
    renderScreen()
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select Acme' }))
    const pageInput = screen.getByRole('spinbutton', { name: 'Page number' })
    expect(screen.getByRole('button', { name: 'Delete Selected' })).toBeEnabled()
    fireEvent.change(pageInput, { target: { value: '9' } })
    expect(pageInput).toHaveValue(3)
    await waitFor(() => expect(listQueries(requests).at(-1)?.get('offset')).toBe('100'))
    await waitFor(() =>
      expect(screen.getByRole('checkbox', { name: 'Select Acme' })).not.toBeChecked(),
    )
    expect(screen.getByRole('button', { name: 'Delete Selected' })).toBeDisabled()
    fireEvent.change(pageInput, { target: { value: '0' } })
    expect(pageInput).toHaveValue(1)
    // Cleared to type another number: it stays empty until typed into, and a typed 2 is page 2.
    await userEvent.clear(pageInput)
    expect(pageInput).toHaveValue(null)
    await userEvent.type(pageInput, '2')
    expect(pageInput).toHaveValue(2)
    await waitFor(() => expect(listQueries(requests).at(-1)?.get('offset')).toBe('50'))
    await userEvent.clear(pageInput)
    await userEvent.tab()
    expect(pageInput).toHaveValue(2)
  })

  it("alerts 'Invalid JSON: …' for bad data and keeps the edit; saves valid data on blur", async () => {
    const row = entity({ name: 'Acme', data: { a: 1 } })
    const { requests } = stubFetch({
      [`GET ${BASE}`]: () => page([row]),
      [`PATCH ${BASE}/${row.id}`]: () => jsonResponse({ ...row, data: { a: 2 } }),
    })
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {})
    renderScreen()
    const cell = await screen.findByRole('textbox', { name: 'data of Acme' })
    fireEvent.change(cell, { target: { value: '{"a": ' } })
    fireEvent.blur(cell)
    expect(alert).toHaveBeenCalledWith(expect.stringMatching(/^Invalid JSON: /))
    expect(cell).toHaveValue('{"a": ')
    expect(requests.some((r) => r.method === 'PATCH')).toBe(false)
    fireEvent.change(cell, { target: { value: '{"a": 2}' } })
    fireEvent.blur(cell)
    await waitFor(() => expect(requests.some((r) => r.method === 'PATCH')).toBe(true))
    const patch = requests.find((r) => r.method === 'PATCH')
    expect(await patch?.json()).toEqual({ data: { a: 2 } })
  })

  it("confirms 'Delete 2 entities?' and shows the server's message when the delete fails", async () => {
    const rows = [entity({ name: 'A' }), entity({ name: 'B' })]
    stubFetch({
      [`GET ${BASE}`]: () => page(rows),
      [`POST ${BASE}/bulk-delete`]: () => problemResponse(403, 'You need the admin role.'),
    })
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true)
    renderScreen()
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select all rows' }))
    await userEvent.click(screen.getByRole('button', { name: 'Delete Selected' }))
    expect(confirm).toHaveBeenCalledWith('Delete 2 entities?')
    expect(await screen.findByText('You need the admin role.')).toBeInTheDocument()
  })

  it("creates from prompts, toasting 'Entity created'; cancel aborts and bad JSON shows its error", async () => {
    const { requests } = stubFetch({
      [`GET ${BASE}`]: () => page([]),
      [`POST ${BASE}`]: (r) => r.json().then((b: Partial<Entity>) => jsonResponse(entity(b), 201)),
    })
    const prompt = vi.spyOn(window, 'prompt')
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {})
    renderScreen()
    const create = await screen.findByRole('button', { name: 'New' })
    prompt.mockReturnValueOnce(null)
    await userEvent.click(create)
    prompt.mockReturnValueOnce('Acme').mockReturnValueOnce('lead').mockReturnValueOnce('{oops')
    await userEvent.click(create)
    expect(alert).toHaveBeenCalledTimes(1)
    expect(requests.some((r) => r.method === 'POST')).toBe(false)
    prompt.mockReturnValueOnce('Acme').mockReturnValueOnce('').mockReturnValueOnce('{"x":1}')
    await userEvent.click(create)
    expect(await screen.findByText('Entity created')).toBeInTheDocument()
    const post = requests.find((r) => r.method === 'POST')
    expect(await post?.json()).toEqual({ name: 'Acme', type: 'item', data: { x: 1 } })
    expect(within(document.body).queryByText('Invalid JSON')).toBeNull()
  })

  it('shows a row created while the first page was still loading, not that late page', async () => {
    // The first load answers only after the write: its page predates the new row.
    let answerFirstLoad: (response: Response) => void = () => {}
    const firstLoad = new Promise<Response>((resolve) => (answerFirstLoad = resolve))
    const created = entity({ name: 'Slow Co' })
    let loads = 0
    stubFetch({
      [`GET ${BASE}`]: () => (++loads === 1 ? firstLoad : page([created])),
      [`POST ${BASE}`]: () => jsonResponse(created, 201),
    })
    vi.spyOn(window, 'prompt')
      .mockReturnValueOnce('Slow Co')
      .mockReturnValueOnce('item')
      .mockReturnValueOnce('{}')
    renderScreen()
    expect(await screen.findByText('Loading…')).toBeInTheDocument()
    expect(screen.queryByText('No entities.')).toBeNull()
    await userEvent.click(screen.getByRole('button', { name: 'New' }))
    expect(await screen.findByRole('textbox', { name: 'name of Slow Co' })).toBeInTheDocument()
    answerFirstLoad(page([]))
    await act(() => firstLoad)
    expect(screen.getByRole('textbox', { name: 'name of Slow Co' })).toBeInTheDocument()
    expect(loads).toBe(2)
  })
})
