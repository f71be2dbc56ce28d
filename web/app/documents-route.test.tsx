import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { makeAnalysis, SAMPLE_CONTRACT } from '../test/make-analysis'
import type { Analysis } from '../features/analysis/api/types'
import type { DocumentDetail } from '../features/documents/api/types'
import { makeDocumentCard, makeDocumentDetail } from '../test/document-factories'
import { inOrgScope } from '../test/in-org-scope'
import { renderWithRouter } from '../test/render-with-router'
import { jsonResponse, problemResponse, stubFetch } from '../test/stub-fetch'
import type { Job } from '../hooks/jobs'
import { DocumentsRoute } from './documents-route'

const ORG = 'org-1'
const BASE = `/api/v1/orgs/${ORG}/documents`

function renderRoute() {
  return renderWithRouter({
    element: inOrgScope(<DocumentsRoute />, { orgId: ORG }),
  })
}

describe('DocumentsRoute: a document beside its analysis', () => {
  function stubDocumentApi(
    options: { document?: DocumentDetail; analyze?: () => Response; stored?: Analysis[] } = {},
  ) {
    const document = options.document ?? makeDocumentDetail(SAMPLE_CONTRACT)
    const analysis = makeAnalysis({ id: 'analysis-new', createdAt: '2026-03-12T15:00:00.000Z' })
    const stored = options.stored ?? [makeAnalysis({ id: 'analysis-old', kind: 'risks' })]
    // Every analysis is a job (202); a short document's has ended by the time the page looks.
    const job: Extract<Job, { kind: 'analysis' }> = {
      id: '55555555-5555-4555-8555-555555555555',
      kind: 'analysis',
      status: 'succeeded',
      progress: 1,
      message: null,
      error: null,
      errorCode: null,
      subjectId: document.id,
      result: { analysisId: analysis.id },
      attempts: 1,
      createdBy: 'user-1',
      createdAt: '2026-03-12T15:00:00.000Z',
      startedAt: '2026-03-12T15:00:00.000Z',
      finishedAt: '2026-03-12T15:00:01.000Z',
    }
    return stubFetch({
      'GET /api/auth/organization/list': () =>
        jsonResponse([{ id: ORG, name: 'Acme Law', slug: 'acme-law' }]),
      [`GET /api/v1/orgs/${ORG}/apps`]: () => jsonResponse({ items: [] }),
      'GET /api/auth/organization/get-active-member-role': () => jsonResponse({ role: 'owner' }),
      [`GET ${BASE}`]: () =>
        jsonResponse({
          items: [makeDocumentCard({ id: document.id, title: document.title })],
          total: 1,
          types: ['nda'],
        }),
      [`GET ${BASE}/${document.id}`]: () => jsonResponse(document),
      [`GET ${BASE}/${document.id}/analyses`]: () => jsonResponse({ items: stored }),
      [`POST ${BASE}/${document.id}/analyses`]:
        options.analyze ??
        (() => {
          stored.unshift(analysis)
          return jsonResponse(job, 202)
        }),
      [`GET /api/v1/orgs/${ORG}/jobs/${job.id}`]: () => jsonResponse(job),
    })
  }

  async function openAcme(user: ReturnType<typeof userEvent.setup>) {
    await user.click(await screen.findByRole('button', { name: 'Acme NDA' }))
    return screen.findByRole('region', { name: 'Document text' })
  }

  it('opens a document never analysed as readable pre-wrapped text with the analysis panel hidden', async () => {
    const user = userEvent.setup()
    stubDocumentApi({ stored: [] })
    renderRoute()

    const text = await openAcme(user)
    expect(text.textContent).toBe(SAMPLE_CONTRACT)
    expect(text).toHaveClass('whitespace-pre-wrap')
    expect(screen.getByRole('heading', { name: 'Acme NDA', level: 2 })).toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'Analysis result' })).not.toBeInTheDocument()
    // "Compare with…" opens the comparisons screen with this document as the earlier version.
    expect(screen.getByRole('link', { name: 'Compare with…' })).toHaveAttribute(
      'href',
      '/dashboard/acme-law/comparisons?base=doc-1',
    )
  })

  it('explains a scanned PDF with no text and disables analysis', async () => {
    const user = userEvent.setup()
    stubDocumentApi({
      document: makeDocumentDetail('', {
        textStatus: 'empty',
        textStatusMessage: 'No text found (scanned PDF?)',
        fileName: 'scan.pdf',
        mimeType: 'application/pdf',
        sizeBytes: 2048,
      }),
    })
    renderRoute()
    await user.click(await screen.findByRole('button', { name: 'Acme NDA' }))

    expect(await screen.findByText('No text found (scanned PDF?)')).toBeInTheDocument()
    expect(await screen.findByRole('button', { name: 'Analyze' })).toBeDisabled()
  })

  it('runs an analysis with toasts, shows it Ready, and highlights exactly a clicked clause', async () => {
    const user = userEvent.setup()
    const { requests } = stubDocumentApi()
    renderRoute()
    const text = await openAcme(user)

    await user.click(await screen.findByRole('button', { name: 'Analyze' }))

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
    renderRoute()
    const text = await openAcme(user)
    await user.click(await screen.findByRole('button', { name: 'Analyze' }))
    await screen.findByText('Analysis complete!')

    await user.click(screen.getByRole('button', { name: /^Uncapped liability/ }))
    expect(within(text).getByTestId('highlight')).toHaveTextContent(
      "Beta's liability under this Agreement is unlimited.",
    )
    await user.click(screen.getByRole('button', { name: 'Party: Acme Corp, Discloser' }))
    expect(within(text).getAllByTestId('highlight')).toHaveLength(1)
    expect(within(text).getByTestId('highlight').textContent).toBe('Acme Corp')
  })

  it("shows Error and toasts 'Failed to analyze document' with the server detail", async () => {
    const user = userEvent.setup()
    stubDocumentApi({ analyze: () => problemResponse(503, 'The analysis engine is unavailable.') })
    renderRoute()
    await openAcme(user)

    await user.click(await screen.findByRole('button', { name: 'Analyze' }))

    expect(await screen.findByText('Failed to analyze document')).toBeInTheDocument()
    const panel = screen.getByRole('region', { name: 'Analysis result' })
    expect(within(panel).getByRole('status')).toHaveTextContent('Error')
    expect(panel).toHaveTextContent('The analysis engine is unavailable.')
  })

  it('lists previous analyses and opens one in the panel', async () => {
    const user = userEvent.setup()
    stubDocumentApi()
    renderRoute()
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
