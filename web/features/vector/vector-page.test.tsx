import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { renderWithRouter } from '../../test/render-with-router'
import { jsonResponse, stubFetch } from '../../test/stub-fetch'
import { inOrgScope } from '../../test/in-org-scope'
import { VectorPage } from './vector-page'
import { clampTopK } from './run-vector-search'

const ORG = 'org-1'

function renderPage() {
  return renderWithRouter({ element: inOrgScope(<VectorPage />, { orgId: ORG }) })
}

const ROW = {
  id: '11111111-1111-4111-8111-111111111111',
  score: 0.812345,
  content: 'The Receiving Party shall return or destroy all copies.',
  metadata: {
    documentId: '22222222-2222-4222-8222-222222222222',
    documentTitle: 'NDA',
    appId: null,
    start: 10,
    end: 65,
    ordinal: 1,
  },
}

describe('Vector Store tester', () => {
  it("shows 'No results yet.' before a search, then id, score to 4 decimals, content and metadata", async () => {
    const fetch = stubFetch({
      [`POST /api/v1/orgs/${ORG}/embeddings`]: () =>
        jsonResponse({ embedding: [0.1, 0.2], embedder: 'x' }),
      [`POST /api/v1/orgs/${ORG}/rpc/semantic_search`]: () => jsonResponse([ROW]),
    })
    renderPage()
    expect(screen.getByText('No results yet.')).toBeInTheDocument()
    await userEvent.type(screen.getByLabelText('Query text'), 'destroy copies')
    await userEvent.clear(screen.getByLabelText('Top K'))
    await userEvent.type(screen.getByLabelText('Top K'), '99')
    await userEvent.click(screen.getByRole('button', { name: 'Search' }))
    expect(await screen.findByText('score 0.8123')).toBeInTheDocument()
    expect(screen.getByText(`id ${ROW.id}`)).toBeInTheDocument()
    expect(screen.getByText(ROW.content)).toBeInTheDocument()
    expect(screen.getByText(/"documentTitle": "NDA"/)).toBeInTheDocument()
    const rpc = fetch.requests.find((r) => r.url.includes('semantic_search'))
    expect(await rpc?.clone().json()).toMatchObject({ _org: ORG, _k: 50, _emb: '[0.1,0.2]' })
  })

  it("names each result's document and opens the passage in the reader", async () => {
    stubFetch({
      [`POST /api/v1/orgs/${ORG}/embeddings`]: () =>
        jsonResponse({ embedding: [0.1, 0.2], embedder: 'x' }),
      [`POST /api/v1/orgs/${ORG}/rpc/semantic_search`]: () => jsonResponse([ROW]),
    })
    renderWithRouter({
      element: inOrgScope(<VectorPage />, { orgId: ORG, appSlug: 'tax' }),
    })
    await userEvent.type(screen.getByLabelText('Query text'), 'destroy copies')
    await userEvent.click(screen.getByRole('button', { name: 'Search' }))
    const results = await screen.findByRole('list', { name: 'Results' })
    expect(within(results).getByText('NDA', { selector: 'p' })).toBeInTheDocument()
    const open = within(results).getByRole('link', { name: 'Open the passage in NDA' })
    const target = new URL(open.getAttribute('href') ?? '', 'http://x')
    expect(target.pathname).toBe('/dashboard/acme-law/documents')
    expect(Object.fromEntries(target.searchParams)).toEqual({
      app: 'tax',
      document: ROW.metadata.documentId,
      start: '10',
      end: '65',
    })
  })

  it("uses the embedding JSON when given and reports 'Invalid embedding JSON: …'", async () => {
    stubFetch({})
    renderPage()
    await userEvent.type(screen.getByLabelText('Embedding JSON (optional)'), '[[1, 2')
    await userEvent.click(screen.getByRole('button', { name: 'Search' }))
    expect((await screen.findByRole('alert')).textContent).toMatch(/^Invalid embedding JSON: /)
  })

  it("asks for text when there is neither text nor embedding: 'Provide text to embed.'", async () => {
    stubFetch({})
    renderPage()
    await userEvent.click(screen.getByRole('button', { name: 'Search' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Provide text to embed.')
  })

  it('rejects an embedding function answer without an embedding array', async () => {
    stubFetch({ [`POST /api/v1/orgs/${ORG}/embeddings`]: () => jsonResponse({ vector: 'nope' }) })
    renderPage()
    await userEvent.type(screen.getByLabelText('Query text'), 'x')
    await userEvent.click(screen.getByRole('button', { name: 'Search' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'embed-text function must return { embedding: number[] }',
    )
  })

  it('clamps Top K to 1–50 with 8 as the default', () => {
    expect([
      clampTopK(''),
      clampTopK('0'),
      clampTopK('51'),
      clampTopK('12'),
      clampTopK('x'),
    ]).toEqual([8, 1, 50, 12, 8])
  })
})
