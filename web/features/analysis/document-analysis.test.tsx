import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { renderWithRouter } from '../../test/render-with-router'
import { jsonResponse, stubFetch } from '../../test/stub-fetch'
import type { Job } from '../../hooks/jobs'
import { DocumentAnalysis } from './document-analysis'
import { makeAnalysis } from '../../test/make-analysis'
import type { Analysis } from './api/types'

const ORG = 'org-1'
const DOCUMENT = 'doc-1'

type AnalysisJob = Extract<Job, { kind: 'analysis' }>

function analysisJob(status: Job['status'], extra: Partial<AnalysisJob> = {}): AnalysisJob {
  return {
    id: '44444444-4444-4444-8444-444444444444',
    kind: 'analysis',
    status,
    progress: status === 'running' ? 0.4 : 0,
    message: status === 'running' ? 'Finding clauses' : null,
    error: null,
    errorCode: null,
    subjectId: DOCUMENT,
    result: null,
    attempts: 1,
    createdBy: 'user-1',
    createdAt: '2026-11-24T08:00:00.000Z',
    startedAt: '2026-11-24T08:00:01.000Z',
    finishedAt: null,
    ...extra,
  }
}

/** Renders the document's analysis section as after a reload, with these server answers. */
function renderAfterReload(latest: Job | null, analyses: Analysis[]) {
  const { requests } = stubFetch({
    [`GET /api/v1/orgs/${ORG}/documents/${DOCUMENT}/analyses`]: () =>
      jsonResponse({ items: analyses, total: analyses.length }),
    [`GET /api/v1/orgs/${ORG}/jobs`]: () =>
      jsonResponse({ items: latest ? [latest] : [], total: latest ? 1 : 0 }),
    [`GET /api/v1/orgs/${ORG}/jobs/${latest?.id}`]: () => jsonResponse(latest),
  })
  const { queryClient } = renderWithRouter({
    element: (
      <DocumentAnalysis
        orgId={ORG}
        documentId={DOCUMENT}
        canAnalyze
        highlight={null}
        onSelectSpan={() => {}}
      />
    ),
  })
  return { requests, queryClient }
}

describe('DocumentAnalysis after a reload', () => {
  it("asks for the document's newest analysis job only", async () => {
    const { requests } = renderAfterReload(null, [])
    await screen.findByText('No analyses yet.')
    const jobs = requests.find((r) => new URL(r.url).pathname.endsWith('/jobs'))
    expect(Object.fromEntries(new URL(jobs?.url ?? '').searchParams)).toEqual({
      subjectId: DOCUMENT,
      kind: 'analysis',
      limit: '1',
    })
  })

  it('shows a job still running as Working with its progress', async () => {
    renderAfterReload(analysisJob('running'), [])
    const panel = await screen.findByRole('region', { name: 'Analysis result' })
    expect(await within(panel).findByText(/Finding clauses/)).toBeInTheDocument()
  })

  it('shows the message of a job that failed while the page was away', async () => {
    const failed = analysisJob('failed', {
      error: 'Analysing this document took longer than the server allows.',
      finishedAt: '2026-11-24T08:10:00.000Z',
    })
    renderAfterReload(failed, [makeAnalysis({ createdAt: '2026-11-20T09:00:00.000Z' })])
    const panel = await screen.findByRole('region', { name: 'Analysis result' })
    expect(within(panel).getByRole('status')).toHaveTextContent('Error')
    expect(panel).toHaveTextContent('Analysing this document took longer than the server allows.')
  })

  it('shows the newest analysis, not a failure older than it', async () => {
    const failed = analysisJob('failed', {
      error: 'An old failure.',
      finishedAt: '2026-11-19T08:10:00.000Z',
    })
    const { queryClient } = renderAfterReload(failed, [
      makeAnalysis({ createdAt: '2026-11-20T09:00:00.000Z' }),
    ])
    const panel = await screen.findByRole('region', { name: 'Analysis result' })
    await waitFor(() => expect(queryClient.isFetching()).toBe(0))
    expect(within(panel).getByRole('status')).toHaveTextContent('Ready')
    expect(screen.queryByText('An old failure.')).not.toBeInTheDocument()
  })

  it('shows the newest analysis on opening, the older ones one click away', async () => {
    const user = userEvent.setup()
    const done = analysisJob('succeeded', { finishedAt: '2026-11-21T09:00:01.000Z' })
    renderAfterReload(done, [
      makeAnalysis({ id: 'newest', kind: 'risks', createdAt: '2026-11-21T09:00:00.000Z' }),
      makeAnalysis({ id: 'older', kind: 'full', createdAt: '2026-11-20T09:00:00.000Z' }),
    ])
    const panel = await screen.findByRole('region', { name: 'Analysis result' })
    expect(within(panel).getByRole('status')).toHaveTextContent('Ready')
    expect(within(panel).getByText(/^Risks ·/)).toBeInTheDocument()
    const history = screen.getByRole('region', { name: 'Previous analyses' })
    expect(within(history).getByRole('button', { name: /^Risks ·/ })).toHaveAttribute(
      'aria-current',
      'true',
    )

    await user.click(within(history).getByRole('button', { name: /^Full/ }))
    expect(within(history).getByRole('button', { name: /^Full/ })).toHaveAttribute(
      'aria-current',
      'true',
    )
    expect(within(panel).getByText(/^Full analysis ·/)).toBeInTheDocument()
  })

  it('shows a job still running, with its progress, rather than the newest analysis', async () => {
    renderAfterReload(analysisJob('running'), [
      makeAnalysis({ createdAt: '2026-11-20T09:00:00.000Z' }),
    ])
    const panel = await screen.findByRole('region', { name: 'Analysis result' })
    expect(await within(panel).findByText(/Finding clauses/)).toBeInTheDocument()
    expect(within(panel).queryByText('Ready')).not.toBeInTheDocument()
  })
})

describe("DocumentAnalysis's 'we act for'", () => {
  it('saves the chosen party on the document and shows the risks the server re-oriented', async () => {
    const neutral = makeAnalysis()
    const oriented: Analysis = {
      ...neutral,
      weActFor: { kind: 'party', party: 'Acme Corp' },
      ourParty: 'Acme Corp',
      result: {
        ...neutral.result,
        risks: neutral.result.risks.map((risk) =>
          risk.code === 'uncapped-liability'
            ? {
                ...risk,
                severity: 'low' as const,
                orientation: 'binds-them' as const,
                whose: { label: 'Their risk', reason: 'The cited clause binds Beta LLC.' },
              }
            : risk,
        ),
      },
    }
    let saved: unknown = null
    const { requests } = stubFetch({
      [`GET /api/v1/orgs/${ORG}/documents/${DOCUMENT}/analyses`]: () =>
        jsonResponse({ items: [saved ? oriented : neutral], total: 1 }),
      [`GET /api/v1/orgs/${ORG}/jobs`]: () => jsonResponse({ items: [], total: 0 }),
      [`PUT /api/v1/orgs/${ORG}/documents/${DOCUMENT}/we-act-for`]: async (request) => {
        saved = await request.json()
        return jsonResponse({ id: DOCUMENT })
      },
    })
    renderWithRouter({
      element: (
        <DocumentAnalysis
          orgId={ORG}
          documentId={DOCUMENT}
          canAnalyze
          highlight={null}
          onSelectSpan={() => {}}
        />
      ),
    })
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: /^Full/ }))
    expect(
      await screen.findByRole('button', { name: /Uncapped liability.*Risk for Beta LLC/ }),
    ).toBeInTheDocument()

    await user.click(screen.getByRole('radio', { name: 'Acme Corp (Discloser)' }))
    const low = await screen.findByRole('region', { name: 'Low severity' })
    expect(
      await within(low).findByRole('button', { name: /Uncapped liability.*Their risk/ }),
    ).toBeInTheDocument()
    expect(saved).toEqual({ weActFor: { kind: 'party', party: 'Acme Corp' } })
    expect(requests.filter((r) => r.method === 'PUT')).toHaveLength(1)
    expect(screen.getByRole('radio', { name: 'Acme Corp (Discloser)' })).toBeChecked()
  })
})
