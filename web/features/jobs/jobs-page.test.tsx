import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import type { Job } from '../../hooks/jobs'
import { inOrgScope } from '../../test/in-org-scope'
import { renderWithRouter } from '../../test/render-with-router'
import { jsonResponse, problemResponse, stubFetch } from '../../test/stub-fetch'
import { makeJob } from '../../test/make-job'
import { JobsPage } from './jobs-page'

const ORG = 'org-1'
const LEASE = '00000000-0000-4000-8000-000000000001'
const NDA = '00000000-0000-4000-8000-000000000002'

const job = (id: string, fields: Partial<Job> & Pick<Job, 'kind' | 'status'>): Job =>
  makeJob({ id, ...fields })

const INDEXING = job('00000000-0000-4000-8000-0000000000a1', {
  kind: 'document-passages',
  status: 'running',
  progress: 0.426,
  message: 'Saved 213 of 500 passages',
  subjectId: LEASE,
})
const OCR = job('00000000-0000-4000-8000-0000000000a2', {
  kind: 'ocr',
  status: 'queued',
  subjectId: NDA,
})
const SUBJECTS = [
  { id: LEASE, type: 'document', title: 'Signed lease — Marsh & Vale' },
  { id: NDA, type: 'document', title: 'Scanned NDA' },
]

function renderJobs(cancelAnswer: () => Response) {
  let running = [INDEXING, OCR]
  const stub = stubFetch({
    [`GET /api/v1/orgs/${ORG}/jobs`]: (request) => {
      expect(new URL(request.url).searchParams.get('status')).toBe('queued,running')
      return jsonResponse({ items: running, total: running.length, subjects: SUBJECTS })
    },
    [`POST /api/v1/orgs/${ORG}/jobs/${INDEXING.id}/cancel`]: () => {
      const answer = cancelAnswer()
      if (answer.ok) running = [OCR]
      return answer
    },
  })
  renderWithRouter({ element: inOrgScope(<JobsPage />) })
  return stub
}

describe('JobsPage', () => {
  it("says Loading… while the list loads, not 'No jobs running.'", async () => {
    stubFetch({ [`GET /api/v1/orgs/${ORG}/jobs`]: () => new Promise<Response>(() => {}) })
    renderWithRouter({ element: inOrgScope(<JobsPage />) })
    const table = await screen.findByRole('table', { name: 'Running jobs' })
    expect(within(table).getByRole('cell', { name: 'Loading…' })).toHaveAttribute(
      'aria-busy',
      'true',
    )
    expect(within(table).queryByText('No jobs running.')).toBeNull()
  })

  it("shows each running job's kind, document and percentage, and a queued one as waiting", async () => {
    renderJobs(() => jsonResponse({ ...INDEXING, status: 'cancelled' }))
    const table = await screen.findByRole('table', { name: 'Running jobs' })
    await within(table).findByText('Scanned NDA')
    const rows = within(table).getAllByRole('row')
    expect(rows.slice(1).map((row) => row.textContent)).toEqual([
      'IndexingSigned lease — Marsh & Vale42% · Saved 213 of 500 passagesCancel',
      'Text recognition (OCR)Scanned NDAQueued · waiting for a free workerCancel',
    ])
    expect(
      within(table).getByRole('progressbar', {
        name: 'Indexing of Signed lease — Marsh & Vale progress',
      }),
    ).toHaveAttribute('aria-valuenow', '42')
  })

  it('cancels a job and drops it from the list', async () => {
    const { calls } = renderJobs(() => jsonResponse({ ...INDEXING, status: 'cancelled' }))
    await userEvent.click(
      await screen.findByRole('button', { name: 'Cancel Indexing of Signed lease — Marsh & Vale' }),
    )
    await waitFor(() =>
      expect(screen.queryByText('Signed lease — Marsh & Vale')).not.toBeInTheDocument(),
    )
    expect(calls()).toContain(`POST /api/v1/orgs/${ORG}/jobs/${INDEXING.id}/cancel`)
    expect(screen.getByText('Scanned NDA')).toBeInTheDocument()
  })

  it("says why when the server refuses to cancel a colleague's job", async () => {
    renderJobs(() => problemResponse(403, 'Only the job’s creator or an admin can cancel it.'))
    await userEvent.click(
      await screen.findByRole('button', { name: 'Cancel Indexing of Signed lease — Marsh & Vale' }),
    )
    expect(
      await screen.findByText('Only the job’s creator or an admin can cancel it.'),
    ).toBeInTheDocument()
    expect(screen.getByText('Signed lease — Marsh & Vale')).toBeInTheDocument()
  })
})
