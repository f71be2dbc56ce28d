import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import { vi } from 'vitest'
import { makeAnalysis, SAMPLE_CONTRACT } from '../analysis/make-analysis'
import { DocumentsScreen } from './documents-screen'
import { renderWithProviders } from './render-with-providers'
import { jsonResponse, problemResponse, stubApi } from './stub-api'
import type { DocumentCard, DocumentDetail } from './types'

const ORG = 'org-1'
/** A single-line 150-character preview, as the API cuts it. */
const LONG_PREVIEW = 'Mutual non-disclosure agreement between Acme Corp and Beta LLC. '
  .repeat(3)
  .slice(0, 150)
const BASE = `/api/v1/orgs/${ORG}/documents`

function makeCard(overrides: Partial<DocumentCard> = {}): DocumentCard {
  return {
    id: 'doc-1',
    title: 'Acme NDA',
    documentType: 'nda',
    preview: LONG_PREVIEW,
    createdAt: '2026-03-10T09:00:00.000Z',
    textStatus: 'ok',
    ...overrides,
  }
}

function makeDocument(overrides: Partial<DocumentDetail> = {}): DocumentDetail {
  return {
    id: 'doc-1',
    title: 'Acme NDA',
    content: SAMPLE_CONTRACT,
    documentType: 'nda',
    createdAt: '2026-03-10T09:00:00.000Z',
    createdBy: 'user-1',
    fileName: null,
    mimeType: null,
    sizeBytes: null,
    textStatus: 'ok',
    textStatusMessage: null,
    ...overrides,
  }
}

const list = (items: DocumentCard[], types = ['nda']) =>
  jsonResponse(200, { items, total: items.length, types })

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('DocumentsScreen library', () => {
  it('shows cards with title, type and preview in the order the API returns (newest first)', async () => {
    stubApi({
      [`GET ${BASE}`]: () =>
        list([
          makeCard({
            id: 'b',
            title: 'Beta lease',
            documentType: 'lease',
            preview: 'Lease of office space',
          }),
          makeCard({ id: 'a', title: 'Acme NDA' }),
        ]),
    })
    renderWithProviders(<DocumentsScreen orgId={ORG} />)

    const cards = within(await screen.findByRole('list', { name: 'Documents' })).getAllByRole(
      'listitem',
    )
    expect(cards.map((c) => within(c).getByRole('button').textContent)).toEqual([
      'Beta lease',
      'Acme NDA',
    ])
    expect(cards[0]).toHaveTextContent('Lease')
    expect(cards[0]).toHaveTextContent('Lease of office space')
    expect(cards[1]).toHaveTextContent(`${LONG_PREVIEW}…`)
  })

  it('shows an empty state when the org has no documents', async () => {
    stubApi({ [`GET ${BASE}`]: () => list([], []) })
    renderWithProviders(<DocumentsScreen orgId={ORG} />)
    expect(await screen.findByText(/No documents yet/)).toBeInTheDocument()
  })

  it("toasts 'Failed to load documents' when the library cannot load", async () => {
    stubApi({ [`GET ${BASE}`]: () => problemResponse(500, 'Database unavailable') })
    renderWithProviders(<DocumentsScreen orgId={ORG} />)
    expect(await screen.findByText('Failed to load documents')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument()
  })

  it('searches on the server with the typed text once typing pauses', async () => {
    const user = userEvent.setup()
    const { requests } = stubApi({
      [`GET ${BASE}`]: (req) =>
        new URL(req.url).searchParams.get('q') === 'beta'
          ? list([makeCard({ id: 'b', title: 'Beta lease' })])
          : list([makeCard()]),
    })
    renderWithProviders(<DocumentsScreen orgId={ORG} />)
    await screen.findByRole('button', { name: 'Acme NDA' })

    await user.type(screen.getByRole('searchbox', { name: 'Search documents' }), 'beta')

    expect(await screen.findByRole('button', { name: 'Beta lease' })).toBeInTheDocument()
    const queries = requests.map((r) => new URL(r.url).searchParams.get('q'))
    // One request on load and one for the finished word: no request per keystroke.
    expect(queries).toEqual([null, 'beta'])
  })
})

describe('DocumentsScreen document and analysis', () => {
  function stubDocumentApi(options: { document?: DocumentDetail; analyze?: () => Response } = {}) {
    const document = options.document ?? makeDocument()
    const analysis = makeAnalysis({ id: 'analysis-new', createdAt: '2026-03-12T15:00:00.000Z' })
    const stored = [makeAnalysis({ id: 'analysis-old', kind: 'risks' })]
    return stubApi({
      [`GET ${BASE}`]: () => list([makeCard({ id: document.id, title: document.title })]),
      [`GET ${BASE}/${document.id}`]: () => jsonResponse(200, document),
      [`GET ${BASE}/${document.id}/analyses`]: () => jsonResponse(200, { items: stored }),
      [`POST ${BASE}/${document.id}/analyses`]:
        options.analyze ??
        (() => {
          stored.unshift(analysis)
          return jsonResponse(201, analysis)
        }),
    })
  }

  async function openAcme(user: ReturnType<typeof userEvent.setup>) {
    await user.click(await screen.findByRole('button', { name: 'Acme NDA' }))
    return screen.findByRole('region', { name: 'Document text' })
  }

  it('opens a document as readable pre-wrapped text with the analysis panel hidden', async () => {
    const user = userEvent.setup()
    stubDocumentApi()
    renderWithProviders(<DocumentsScreen orgId={ORG} />)

    const text = await openAcme(user)
    expect(text.textContent).toBe(SAMPLE_CONTRACT)
    expect(text).toHaveClass('whitespace-pre-wrap')
    expect(screen.getByRole('heading', { name: 'Acme NDA', level: 2 })).toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'Analysis result' })).not.toBeInTheDocument()
  })

  it('explains a scanned PDF with no text and disables analysis', async () => {
    const user = userEvent.setup()
    stubDocumentApi({
      document: makeDocument({
        content: '',
        textStatus: 'empty',
        textStatusMessage: 'No text found (scanned PDF?)',
        fileName: 'scan.pdf',
        mimeType: 'application/pdf',
        sizeBytes: 2048,
      }),
    })
    renderWithProviders(<DocumentsScreen orgId={ORG} />)
    await user.click(await screen.findByRole('button', { name: 'Acme NDA' }))

    expect(await screen.findByText('No text found (scanned PDF?)')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Analyze' })).toBeDisabled()
  })

  it('runs an analysis with toasts, shows it Ready, and highlights exactly a clicked clause', async () => {
    const user = userEvent.setup()
    const { requests } = stubDocumentApi()
    renderWithProviders(<DocumentsScreen orgId={ORG} />)
    const text = await openAcme(user)

    await user.click(screen.getByRole('button', { name: 'Analyze' }))

    expect(await screen.findByText('Analyzing document...')).toBeInTheDocument()
    expect(await screen.findByText('Analysis complete!')).toBeInTheDocument()
    const panel = screen.getByRole('region', { name: 'Analysis result' })
    expect(within(panel).getByRole('status')).toHaveTextContent('Ready')
    const post = requests.find((r) => r.method === 'POST')
    expect(await post?.json()).toEqual({ kind: 'full' })

    const clause = makeAnalysis().result.clauses[0]!
    await user.click(within(panel).getByRole('button', { name: /State of New York/ }))

    const mark = within(text).getByTestId('highlight')
    expect(mark.tagName).toBe('MARK')
    expect(mark.textContent).toBe(SAMPLE_CONTRACT.slice(clause.start, clause.end))
    expect(text.textContent).toBe(SAMPLE_CONTRACT)
  })

  it('moves the highlight to the passage of the last finding chosen', async () => {
    const user = userEvent.setup()
    stubDocumentApi()
    renderWithProviders(<DocumentsScreen orgId={ORG} />)
    const text = await openAcme(user)
    await user.click(screen.getByRole('button', { name: 'Analyze' }))
    await screen.findByText('Analysis complete!')

    await user.click(screen.getByRole('button', { name: /^Uncapped liability/ }))
    expect(within(text).getByTestId('highlight')).toHaveTextContent(
      "Beta's liability under this Agreement is unlimited.",
    )
    await user.click(screen.getByRole('button', { name: 'Party: Acme Corp' }))
    expect(within(text).getAllByTestId('highlight')).toHaveLength(1)
    expect(within(text).getByTestId('highlight').textContent).toBe('Acme Corp')
  })

  it("shows Error and toasts 'Failed to analyze document' with the server detail", async () => {
    const user = userEvent.setup()
    stubDocumentApi({ analyze: () => problemResponse(503, 'The analysis engine is unavailable.') })
    renderWithProviders(<DocumentsScreen orgId={ORG} />)
    await openAcme(user)

    await user.click(screen.getByRole('button', { name: 'Analyze' }))

    expect(await screen.findByText('Failed to analyze document')).toBeInTheDocument()
    const panel = screen.getByRole('region', { name: 'Analysis result' })
    expect(within(panel).getByRole('status')).toHaveTextContent('Error')
    expect(panel).toHaveTextContent('The analysis engine is unavailable.')
  })

  it('lists previous analyses and opens one in the panel', async () => {
    const user = userEvent.setup()
    stubDocumentApi()
    renderWithProviders(<DocumentsScreen orgId={ORG} />)
    await openAcme(user)

    const history = screen.getByRole('region', { name: 'Previous analyses' })
    await user.click(await within(history).findByRole('button', { name: /^Risks ·/ }))

    const panel = screen.getByRole('region', { name: 'Analysis result' })
    expect(within(panel).getByRole('status')).toHaveTextContent('Ready')
    expect(within(panel).getByRole('heading', { name: 'Risks' })).toBeInTheDocument()
    await waitFor(() =>
      expect(within(history).getByRole('button', { name: /^Risks ·/ })).toHaveAttribute(
        'aria-current',
        'true',
      ),
    )
  })
})
