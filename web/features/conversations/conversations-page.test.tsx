import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { renderWithRouter } from '../../test/render-with-router'
import { jsonResponse, problemResponse, stubFetch } from '../../test/stub-fetch'
import { inOrgScope } from '../../test/in-org-scope'
import { ConversationsPage } from './conversations-page'

const ORG = 'org-1'
const LIST = `GET /api/v1/orgs/${ORG}/conversations`

const conversation = (i: number) => ({
  id: `${String(i).padStart(8, '0')}-aaaa-4aaa-8aaa-aaaaaaaaaaaa`,
  appId: null,
  title: null as string | null,
  startedAt: new Date(Date.UTC(2026, 10, 23, 12, 0, 0) - i * 60_000).toISOString(),
})

function renderPage() {
  return renderWithRouter({
    element: inOrgScope(<ConversationsPage />, { orgId: ORG }),
  })
}

describe('Conversations page', () => {
  it("shows 'No conversations yet' for an organisation without any", async () => {
    stubFetch({ [LIST]: () => jsonResponse({ items: [], total: 0 }) })
    renderPage()
    expect(await screen.findByText('No conversations yet')).toBeInTheDocument()
  })

  it("loads pages of 50 with 'Load more' until a page returns fewer", async () => {
    const all = Array.from({ length: 70 }, (_, i) => conversation(i))
    const fetch = stubFetch({
      [LIST]: (request) => {
        const url = new URL(request.url)
        const offset = Number(url.searchParams.get('offset'))
        const limit = Number(url.searchParams.get('limit'))
        return jsonResponse({ items: all.slice(offset, offset + limit), total: all.length })
      },
    })
    renderPage()
    const list = await screen.findByRole('list', { name: 'Conversations' })
    expect(within(list).getAllByRole('listitem')).toHaveLength(50)
    expect(within(list).getAllByRole('button')[0]).toHaveTextContent('00000000')
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }))
    expect(await within(list).findByText('00000069')).toBeInTheDocument()
    expect(within(list).getAllByRole('listitem')).toHaveLength(70)
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument()
    expect(fetch.calls()).toEqual([LIST, LIST])
  })

  it("keeps the conversations shown when 'Load more' fails, says why, and can try again", async () => {
    const all = Array.from({ length: 70 }, (_, i) => conversation(i))
    let failNext = true
    stubFetch({
      [LIST]: (request) => {
        const offset = Number(new URL(request.url).searchParams.get('offset'))
        if (offset > 0 && failNext) return problemResponse(503, 'The database is restarting')
        return jsonResponse({ items: all.slice(offset, offset + 50), total: all.length })
      },
    })
    renderPage()
    const list = await screen.findByRole('list', { name: 'Conversations' })
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('The database is restarting')
    expect(within(list).getAllByRole('listitem')).toHaveLength(50)
    failNext = false
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }))
    expect(await within(list).findByText('00000069')).toBeInTheDocument()
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('opens a conversation to show its messages and citations', async () => {
    const c = conversation(1)
    stubFetch({
      [LIST]: () => jsonResponse({ items: [c], total: 1 }),
      [`GET /api/v1/orgs/${ORG}/conversations/${c.id}/messages`]: () =>
        jsonResponse({
          items: [
            {
              id: 'm1',
              role: 'user',
              content: 'Which law governs?',
              citations: [],
              createdAt: c.startedAt,
            },
            {
              id: 'm2',
              role: 'assistant',
              content: '“New York law” [1]',
              citations: [
                {
                  n: 1,
                  documentId: 'd1',
                  documentTitle: 'Northwind NDA',
                  start: 5,
                  end: 18,
                  quote: 'New York law',
                },
              ],
              createdAt: c.startedAt,
            },
          ],
          total: 2,
        }),
    })
    renderPage()
    await userEvent.click(await screen.findByRole('button', { name: /00000001/ }))
    expect(await screen.findByText('Which law governs?')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: '[1] Northwind NDA' })).toHaveAttribute(
      'href',
      '/dashboard/acme-law/documents?document=d1&start=5&end=18',
    )
  })

  it('opens the conversation its address names (an audit link), and closing it drops the id', async () => {
    const c = conversation(3)
    stubFetch({
      [LIST]: () => jsonResponse({ items: [c], total: 1 }),
      [`GET /api/v1/orgs/${ORG}/conversations/${c.id}/messages`]: () =>
        jsonResponse({
          items: [
            { id: 'm1', role: 'user', content: 'Linked?', citations: [], createdAt: c.startedAt },
          ],
          total: 1,
        }),
    })
    const { router } = renderWithRouter({
      routes: [{ path: '/c', element: inOrgScope(<ConversationsPage />, { orgId: ORG }) }],
      initialPath: `/c?conversation=${c.id}`,
    })
    expect(await screen.findByText('Linked?')).toBeInTheDocument()
    const card = screen.getByRole('button', { name: /00000003/ })
    expect(card).toHaveAttribute('aria-expanded', 'true')
    await userEvent.click(card)
    expect(screen.queryByText('Linked?')).not.toBeInTheDocument()
    expect(router.state.location.search).toBe('')
  })

  it('renames the open conversation, lists it by its name, and continues it in the assistant', async () => {
    const first = conversation(0)
    let title: string | null = null
    const { requests } = stubFetch({
      [LIST]: () => jsonResponse({ items: [{ ...first, title }], total: 1 }),
      [`GET /api/v1/orgs/${ORG}/conversations/${first.id}/messages`]: () =>
        jsonResponse({ items: [], total: 0 }),
      [`PATCH /api/v1/orgs/${ORG}/conversations/${first.id}`]: async (request) => {
        title = ((await request.json()) as { title: string }).title
        return jsonResponse({ ...first, title })
      },
    })
    renderPage()
    await userEvent.click(await screen.findByRole('button', { name: /00000000/ }))
    const name = screen.getByLabelText('Conversation name')
    await userEvent.type(name, 'Governing law of the NDA')
    await userEvent.click(screen.getByRole('button', { name: 'Rename' }))
    const list = screen.getByRole('list', { name: 'Conversations' })
    expect(await within(list).findByText('Governing law of the NDA')).toBeInTheDocument()
    const patch = requests.find((r) => r.method === 'PATCH')
    expect(await patch?.json()).toEqual({ title: 'Governing law of the NDA' })
    expect(screen.getByRole('link', { name: 'Continue in the assistant' })).toHaveAttribute(
      'href',
      `/dashboard/acme-law?conversation=${first.id}`,
    )
  })

  it("toasts the server's refusal of a rename", async () => {
    const first = conversation(0)
    stubFetch({
      [LIST]: () => jsonResponse({ items: [first], total: 1 }),
      [`GET /api/v1/orgs/${ORG}/conversations/${first.id}/messages`]: () =>
        jsonResponse({ items: [], total: 0 }),
      [`PATCH /api/v1/orgs/${ORG}/conversations/${first.id}`]: () =>
        problemResponse(
          403,
          'Only the person who started this conversation, or an admin, can rename it.',
        ),
    })
    renderPage()
    await userEvent.click(await screen.findByRole('button', { name: /00000000/ }))
    await userEvent.type(screen.getByLabelText('Conversation name'), 'Mine')
    await userEvent.click(screen.getByRole('button', { name: 'Rename' }))
    expect(
      await screen.findByText(
        'Only the person who started this conversation, or an admin, can rename it.',
      ),
    ).toBeInTheDocument()
  })
})
