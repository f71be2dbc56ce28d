import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { makeDocumentCard, makeDocumentDetail } from '../test/document-factories'
import { inOrgScope } from '../test/in-org-scope'
import { renderWithRouter } from '../test/render-with-router'
import { jsonResponse, problemResponse, stubFetch, type FetchRoutes } from '../test/stub-fetch'
import type { Job } from '../hooks/jobs'
import type { DocumentDetail } from '../features/documents/api/types'
import { DocumentsRoute } from './documents-route'

const ORG = 'org-1'
const BASE = `/api/v1/orgs/${ORG}/documents`

type OcrJob = Extract<Job, { kind: 'ocr' }>

function ocrJob(status: Job['status'], extra: Partial<OcrJob> = {}): OcrJob {
  return {
    id: '66666666-6666-4666-8666-666666666666',
    kind: 'ocr',
    status,
    progress: status === 'running' ? 0.33 : 0,
    message: status === 'running' ? 'Reading page 2 of 3' : null,
    error: null,
    errorCode: null,
    subjectId: 'doc-1',
    result: null,
    attempts: 1,
    createdBy: 'user-1',
    createdAt: '2026-11-26T08:00:00.000Z',
    startedAt: '2026-11-26T08:00:01.000Z',
    finishedAt: null,
    ...extra,
  }
}

const SCAN = makeDocumentDetail('', {
  title: 'Signed lease',
  fileName: 'lease.pdf',
  mimeType: 'application/pdf',
  textStatus: 'empty',
  textStatusMessage: 'No text found (scanned PDF?)',
})

/**
 * Opens the scan in the documents screen, the server answering with `document` and `latest`
 * (and `more` routes, e.g. a job's cancel).
 */
async function openScan(
  document: DocumentDetail,
  latest: OcrJob | null,
  started?: OcrJob,
  more: FetchRoutes = {},
) {
  const user = userEvent.setup()
  const { requests } = stubFetch({
    'GET /api/auth/organization/list': () =>
      jsonResponse([{ id: ORG, name: 'Acme Law', slug: 'acme-law' }]),
    [`GET /api/v1/orgs/${ORG}/apps`]: () => jsonResponse({ items: [] }),
    'GET /api/auth/organization/get-active-member-role': () => jsonResponse({ role: 'owner' }),
    [`GET ${BASE}`]: () =>
      jsonResponse({
        items: [makeDocumentCard({ id: document.id, title: document.title, textStatus: 'empty' })],
        total: 1,
        types: ['nda'],
      }),
    [`GET ${BASE}/${document.id}`]: () => jsonResponse(document),
    [`GET ${BASE}/${document.id}/analyses`]: () => jsonResponse({ items: [] }),
    [`GET /api/v1/orgs/${ORG}/jobs`]: (request) => {
      const ocr = new URL(request.url).searchParams.get('kind') === 'ocr' ? latest : null
      return jsonResponse({ items: ocr ? [ocr] : [], total: ocr ? 1 : 0 })
    },
    [`GET /api/v1/orgs/${ORG}/jobs/${latest?.id ?? started?.id}`]: () =>
      jsonResponse(latest ?? started),
    [`POST ${BASE}/${document.id}/ocr`]: () => jsonResponse(started, 202),
    ...more,
  })
  renderWithRouter({ element: inOrgScope(<DocumentsRoute />, { orgId: ORG }) })
  await user.click(await screen.findByRole('button', { name: document.title }))
  return { user, requests }
}

describe('a scanned PDF in the documents screen', () => {
  it('shows the OCR progress page by page and keeps Analyze disabled, saying why', async () => {
    await openScan(SCAN, ocrJob('running'))
    const status = await screen.findByText(/Reading page 2 of 3/)
    expect(status).toHaveTextContent('33%')
    expect(
      screen.getByRole('progressbar', { name: 'Reading the scan (OCR) progress' }),
    ).toBeVisible()
    const analyze = await screen.findByRole('button', { name: 'Analyze' })
    expect(analyze).toBeDisabled()
    expect(analyze).toHaveAccessibleDescription(
      'Analyze is available once the scanned pages have been read (OCR in progress).',
    )
    expect(screen.queryByRole('button', { name: 'Read text (OCR)' })).not.toBeInTheDocument()
  })

  it('says why a refused Cancel did not stop the OCR, which keeps running', async () => {
    const running = ocrJob('running')
    const { user } = await openScan(SCAN, running, undefined, {
      [`POST /api/v1/orgs/${ORG}/jobs/${running.id}/cancel`]: () =>
        problemResponse(409, 'The job has already ended'),
    })
    await user.click(await screen.findByRole('button', { name: 'Cancel' }))
    expect(await screen.findByText('Could not cancel')).toBeVisible()
    expect(screen.getByText('The job has already ended')).toBeVisible()
    expect(screen.getByText(/Reading page 2 of 3/)).toBeVisible()
  })

  it('after a cancelled OCR, says so beside Analyze and offers to read the text again', async () => {
    const started = ocrJob('queued', { id: '77777777-7777-4777-8777-777777777777' })
    const { user, requests } = await openScan(
      SCAN,
      ocrJob('cancelled', { finishedAt: '2026-11-26T08:01:00.000Z' }),
      started,
    )
    const analyze = await screen.findByRole('button', { name: 'Analyze' })
    expect(analyze).toBeDisabled()
    expect(await screen.findByText(/Reading this scan was cancelled/)).toBeVisible()
    await user.click(screen.getByRole('button', { name: 'Read text (OCR)' }))
    expect(requests.some((r) => r.method === 'POST' && r.url.endsWith('/doc-1/ocr'))).toBe(true)
    expect(await screen.findByText(/waiting for a free worker/)).toBeVisible()
  })

  it('shows the scanned page that holds the text once it is read', async () => {
    await openScan(
      makeDocumentDetail('Page one text\n\nPage two text', {
        ...SCAN,
        content: 'Page one text\n\nPage two text',
        textStatus: 'ocr',
        textStatusMessage: 'Text recognised from the page images (OCR).',
        pageStarts: [0, 15],
      }),
      null,
    )
    const figure = await screen.findByRole('figure')
    const image = within(figure).getByRole('img', { name: 'Scanned page 1 of 2' })
    expect(image).toHaveAttribute('src', `${BASE}/doc-1/pages/1`)
    expect(await screen.findByRole('button', { name: 'Analyze' })).toBeEnabled()
  })
})
