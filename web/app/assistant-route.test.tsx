import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { inOrgScope } from '../test/in-org-scope'
import { renderWithRouter } from '../test/render-with-router'
import { jsonResponse, problemResponse, stubFetch } from '../test/stub-fetch'
import { AssistantRoute } from './assistant-route'

const DOCUMENTS = '/api/v1/orgs/org-1/documents'

describe('AssistantRoute', () => {
  it("says the scope picker's documents are loading, not 'No documents yet.'", async () => {
    stubFetch({ [`GET ${DOCUMENTS}`]: () => new Promise<Response>(() => {}) })
    renderWithRouter({ element: inOrgScope(<AssistantRoute />) })
    expect(await screen.findByText('Loading documents…')).toBeInTheDocument()
    expect(screen.queryByText('No documents yet.')).toBeNull()
  })

  it("says why the scope picker's documents could not be loaded", async () => {
    stubFetch({ [`GET ${DOCUMENTS}`]: () => problemResponse(503, 'The database is restarting') })
    renderWithRouter({ element: inOrgScope(<AssistantRoute />) })
    expect(
      await screen.findByText('The documents could not be loaded: The database is restarting'),
    ).toHaveAttribute('role', 'alert')
    expect(screen.queryByText('No documents yet.')).toBeNull()
  })

  it('continues the conversation its address names: shows its messages and adds the next question to it', async () => {
    const id = '33333333-3333-4333-8333-333333333333'
    const { requests } = stubFetch({
      [`GET ${DOCUMENTS}`]: () => jsonResponse({ items: [], total: 0, types: [] }),
      [`GET /api/v1/orgs/org-1/conversations/${id}/messages`]: () =>
        jsonResponse({
          items: [
            { id: 'm1', role: 'user', content: 'Which law governs?', citations: [], createdAt: '' },
            {
              id: 'm2',
              role: 'assistant',
              content: 'English law governs.',
              citations: [],
              createdAt: '',
            },
          ],
          total: 2,
        }),
      'POST /api/v1/orgs/org-1/chat': () =>
        new Response(
          `data: {"conversation_id":"${id}"}\n\ndata: {"choices":[{"delta":{"content":"The courts of London."}}]}\n\ndata: {"citations":[]}\n\ndata: [DONE]\n\n`,
          { headers: { 'content-type': 'text/event-stream' } },
        ),
    })
    renderWithRouter({
      routes: [{ path: '/dashboard/acme-law', element: inOrgScope(<AssistantRoute />) }],
      initialPath: `/dashboard/acme-law?conversation=${id}`,
    })
    const turns = await screen.findByRole('list', { name: 'Conversation' })
    expect(within(turns).getByText('English law governs.')).toBeInTheDocument()
    await userEvent.type(screen.getByRole('textbox', { name: 'Question' }), 'Which courts?')
    await userEvent.click(screen.getByRole('button', { name: 'Ask' }))
    expect(await within(turns).findByText('The courts of London.')).toBeInTheDocument()
    const chat = requests.find((r) => r.method === 'POST')
    expect(await chat?.json()).toMatchObject({
      conversation_id: id,
      messages: [
        { role: 'user', content: 'Which law governs?' },
        { role: 'assistant', content: 'English law governs.' },
        { role: 'user', content: 'Which courts?' },
      ],
    })
  })
})
