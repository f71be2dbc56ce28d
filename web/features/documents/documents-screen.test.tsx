import { act, fireEvent, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { makeDocumentCard, makeDocumentDetail } from '../../test/document-factories'
import { renderWithRouter } from '../../test/render-with-router'
import { jsonResponse, problemResponse, stubFetch } from '../../test/stub-fetch'
import { DocumentsScreen } from './documents-screen'
import type { DocumentAnalysisSlotProps, DocumentCard } from './types'

const ORG = 'org-1'
const BASE = `/api/v1/orgs/${ORG}/documents`
/** A single-line 150-character preview, as the API cuts it. */
const LONG_PREVIEW = 'Mutual non-disclosure agreement between Acme Corp and Beta LLC. '
  .repeat(3)
  .slice(0, 150)

const list = (items: DocumentCard[], types = ['nda']) =>
  jsonResponse({ items, total: items.length, types })

function renderScreen(
  renderAnalysis: (props: DocumentAnalysisSlotProps) => null = () => null,
  appId: string | null = null,
) {
  return renderWithRouter({
    element: <DocumentsScreen scope={{ orgId: ORG, appId }} renderAnalysis={renderAnalysis} />,
  })
}

describe('DocumentsScreen library', () => {
  it('shows cards with title, type and preview in the order the API returns (newest first)', async () => {
    stubFetch({
      [`GET ${BASE}`]: () =>
        list([
          makeDocumentCard({
            id: 'b',
            title: 'Beta lease',
            documentType: 'lease',
            preview: 'Lease of office space',
          }),
          makeDocumentCard({ id: 'a', title: 'Acme NDA', preview: LONG_PREVIEW }),
        ]),
    })
    renderScreen()

    const cards = within(await screen.findByRole('list', { name: 'Documents' })).getAllByRole(
      'listitem',
    )
    expect(cards.map((c) => within(c).getAllByRole('button')[0]?.textContent)).toEqual([
      'Beta lease',
      'Acme NDA',
    ])
    expect(cards[0]).toHaveTextContent('Lease')
    expect(cards[0]).toHaveTextContent('Lease of office space')
    expect(cards[1]).toHaveTextContent(`${LONG_PREVIEW}…`)
  })

  it("asks the server for the chosen app's documents only", async () => {
    const { requests } = stubFetch({ [`GET ${BASE}`]: () => list([makeDocumentCard()]) })
    renderScreen(undefined, 'app-7')
    await screen.findByRole('button', { name: 'Acme NDA' })
    expect(new URL(requests[0]!.url).searchParams.get('appId')).toBe('app-7')
  })

  it('shows an empty state when the org has no documents', async () => {
    stubFetch({ [`GET ${BASE}`]: () => list([], []) })
    renderScreen()
    expect(await screen.findByText(/No documents yet/)).toBeInTheDocument()
  })

  it("toasts 'Failed to load documents' when the library cannot load", async () => {
    stubFetch({ [`GET ${BASE}`]: () => problemResponse(500, 'Database unavailable') })
    renderScreen()
    expect(await screen.findByText('Failed to load documents')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument()
  })

  it('searches on the server once typing pauses for 300 ms, not per keystroke', async () => {
    const { requests } = stubFetch({
      [`GET ${BASE}`]: (req) =>
        new URL(req.url).searchParams.get('q') === 'beta'
          ? list([makeDocumentCard({ id: 'b', title: 'Beta lease' })])
          : list([makeDocumentCard()]),
    })
    renderScreen()
    await screen.findByRole('button', { name: 'Acme NDA' })
    const searches = () => requests.map((r) => new URL(r.url).searchParams.get('q'))

    // Only the debounce timer is faked and keystrokes are synchronous events, so the clock stands
    // still while the word is typed: the test does not depend on how fast this machine runs.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const searchbox = screen.getByRole('searchbox', { name: 'Search documents' })
    for (const typed of ['b', 'be', 'bet', 'beta']) {
      fireEvent.change(searchbox, { target: { value: typed } })
      act(() => vi.advanceTimersByTime(200))
    }
    act(() => vi.advanceTimersByTime(99))
    expect(searches()).toEqual([null])

    act(() => vi.advanceTimersByTime(1))
    vi.useRealTimers()
    expect(await screen.findByRole('button', { name: 'Beta lease' })).toBeInTheDocument()
    expect(searches()).toEqual([null, 'beta'])
  })
})

describe('DocumentsScreen workspace', () => {
  function stubOneDocument(content: string, overrides: Parameters<typeof makeDocumentDetail>[1]) {
    const document = makeDocumentDetail(content, overrides)
    stubFetch({
      [`GET ${BASE}`]: () => list([makeDocumentCard({ id: document.id, title: document.title })]),
      [`GET ${BASE}/${document.id}`]: () => jsonResponse(document),
    })
    return document
  }

  it('opens a document as readable pre-wrapped text and hands the analysis slot its id', async () => {
    const user = userEvent.setup()
    const content = 'MUTUAL NDA\n\n1. Confidentiality.  Keep it secret.'
    const document = stubOneDocument(content, {})
    const renderAnalysis = vi.fn((_props: DocumentAnalysisSlotProps) => null)
    renderScreen(renderAnalysis)

    await user.click(await screen.findByRole('button', { name: 'Acme NDA' }))

    const text = await screen.findByRole('region', { name: 'Document text' })
    expect(text.textContent).toBe(content)
    expect(text).toHaveClass('whitespace-pre-wrap')
    expect(screen.getByRole('heading', { name: 'Acme NDA', level: 2 })).toBeInTheDocument()
    expect(renderAnalysis).toHaveBeenLastCalledWith(
      expect.objectContaining({
        orgId: ORG,
        documentId: document.id,
        canAnalyze: true,
        highlight: null,
      }),
    )
  })

  it('explains a scanned PDF with no text and tells the analysis it cannot run', async () => {
    const user = userEvent.setup()
    stubOneDocument('', {
      textStatus: 'empty',
      textStatusMessage: 'No text found (scanned PDF?)',
      fileName: 'scan.pdf',
      mimeType: 'application/pdf',
      sizeBytes: 2048,
    })
    const renderAnalysis = vi.fn((_props: DocumentAnalysisSlotProps) => null)
    renderScreen(renderAnalysis)
    await user.click(await screen.findByRole('button', { name: 'Acme NDA' }))

    expect(await screen.findByText('No text found (scanned PDF?)')).toBeInTheDocument()
    expect(renderAnalysis).toHaveBeenLastCalledWith(expect.objectContaining({ canAnalyze: false }))
  })
})
