import { act, fireEvent, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest'
import { makeDocumentCard, makeDocumentDetail } from '../../test/document-factories'
import { renderWithRouter } from '../../test/render-with-router'
import { jsonResponse, problemResponse, stubFetch } from '../../test/stub-fetch'
import { DocumentsScreen } from './documents-screen'
import type { DocumentAnalysisSlotProps, DocumentCard } from './api/types'

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

  it("filters by type from a labelled native select, keeping a chosen type's label", async () => {
    const { requests } = stubFetch({
      [`GET ${BASE}`]: (request) =>
        new URL(request.url).searchParams.get('type') === 'nda'
          ? list([makeDocumentCard()], [])
          : list([makeDocumentCard()], ['nda']),
    })
    renderScreen()
    const filter = await screen.findByRole('combobox', { name: 'Filter by type' })
    expect(filter).toHaveDisplayValue('All types')
    await within(filter).findByRole('option', { name: 'NDA' })
    await userEvent.selectOptions(filter, 'NDA')
    await vi.waitFor(() =>
      expect(requests.map((r) => new URL(r.url).searchParams.get('type'))).toContain('nda'),
    )
    // The answer lists no types any more; the chosen one stays shown by its label.
    expect(filter).toHaveDisplayValue('NDA')
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

  describe('on a phone, where the opened document is far below the library', () => {
    // jsdom lays nothing out and has no scrollIntoView: a spy stands in, removed after each test.
    let scrolled: Mock<(options?: boolean | ScrollIntoViewOptions) => void>
    beforeEach(() => {
      scrolled = vi.fn<(options?: boolean | ScrollIntoViewOptions) => void>()
      Element.prototype.scrollIntoView = scrolled
    })
    afterEach(() => {
      delete (Element.prototype as Partial<Element>).scrollIntoView
    })
    /** The elements scrollIntoView was called on, in order. */
    const scrolledElements = () => scrolled.mock.contexts as Element[]

    it('brings the opened document into view and moves the focus to its heading', async () => {
      const user = userEvent.setup()
      stubOneDocument('MUTUAL NDA', {})
      renderScreen()

      await user.click(await screen.findByRole('button', { name: 'Acme NDA' }))

      const heading = await screen.findByRole('heading', { name: 'Acme NDA', level: 2 })
      await expect.poll(() => window.document.activeElement).toBe(heading)
      expect(scrolledElements().some((element) => element.contains(heading))).toBe(true)
    })

    it('goes back to the card the document was opened from, focused', async () => {
      const user = userEvent.setup()
      stubOneDocument('MUTUAL NDA', {})
      renderScreen()
      const card = await screen.findByRole('button', { name: 'Acme NDA' })
      await user.click(card)
      const heading = await screen.findByRole('heading', { name: 'Acme NDA', level: 2 })
      await expect.poll(() => window.document.activeElement).toBe(heading)
      scrolled.mockClear()

      await user.click(screen.getByRole('button', { name: 'Back to documents' }))

      expect(window.document.activeElement).toBe(card)
      expect(scrolledElements()).toEqual([card])
    })

    it('does not scroll a wide screen, where the document is already beside the library', async () => {
      const user = userEvent.setup()
      // A desktop: the stacking query (narrower than lg) and reduced motion do not match.
      window.matchMedia = (query: string) => ({ matches: false, media: query }) as MediaQueryList
      try {
        stubOneDocument('MUTUAL NDA', {})
        renderScreen()
        await user.click(await screen.findByRole('button', { name: 'Acme NDA' }))
        const heading = await screen.findByRole('heading', { name: 'Acme NDA', level: 2 })
        await expect.poll(() => window.document.activeElement).toBe(heading)
        expect(scrolled).not.toHaveBeenCalled()
      } finally {
        delete (window as Partial<Window>).matchMedia
      }
    })

    it('leaves the page where it is for a shared link, which the reader did not open here', async () => {
      const document = makeDocumentDetail('MUTUAL NDA', {})
      stubFetch({
        [`GET ${BASE}`]: () => list([makeDocumentCard({ id: document.id, title: document.title })]),
        [`GET ${BASE}/${document.id}`]: () => jsonResponse(document),
      })
      renderWithRouter({
        routes: [
          {
            path: '/',
            element: (
              <DocumentsScreen scope={{ orgId: ORG, appId: null }} renderAnalysis={() => null} />
            ),
          },
        ],
        initialPath: `/?document=${document.id}`,
      })

      const heading = await screen.findByRole('heading', { name: 'Acme NDA', level: 2 })
      expect(window.document.activeElement).not.toBe(heading)
      expect(scrolled).not.toHaveBeenCalled()
    })
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
