import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { inOrgScope } from '../../test/in-org-scope'
import { renderWithRouter } from '../../test/render-with-router'
import { jsonResponse, stubFetch } from '../../test/stub-fetch'
import { makeDocumentDetail } from '../../test/document-factories'
import { makeJob } from '../../test/make-job'
import { FakeWebSocket } from '../../test/fake-web-socket'
import type { Comparison, ComparisonChange } from './api'
import { ComparisonsPage } from './comparisons-page'

const ORG = 'org-1'
const ID = '00000000-0000-4000-8000-0000000000e1'
const JOB = '00000000-0000-4000-8000-0000000000f1'
const V1 = '00000000-0000-4000-8000-000000000d01'
const V2 = '00000000-0000-4000-8000-000000000d02'
const url = `/api/v1/orgs/${ORG}/comparisons`

const BASE = '1. Term. Notice is thirty days.\n\n2. Law. English law governs.\n'
const REVISED = '1. Term. Notice is sixty days.\n\n2. Law.  English law governs.\n'
const span = (text: string, part: string, from = 0) => {
  const start = text.indexOf(part, from)
  return { start, end: start + part.length }
}

const PERIOD: ComparisonChange = {
  kind: 'modified',
  scope: 'words',
  substantive: true,
  format: null,
  base: span(BASE, 'thirty'),
  revised: span(REVISED, 'sixty'),
  baseText: 'thirty',
  revisedText: 'sixty',
  baseClause: 0,
  revisedClause: 0,
  note: 'notice period changed',
}
const SPACING: ComparisonChange = {
  kind: 'modified',
  scope: 'words',
  substantive: false,
  format: 'whitespace',
  base: span(BASE, ' ', BASE.indexOf('Law.') + 3),
  revised: span(REVISED, '  '),
  baseText: ' ',
  revisedText: '  ',
  baseClause: 1,
  revisedClause: 1,
  note: null,
}

function comparison(state: Comparison['state']): Comparison {
  const clause = (text: string, from: string, label: string, heading: string) => ({
    span: span(text, from),
    label,
    heading,
  })
  return {
    id: ID,
    appId: null,
    baseDocumentId: V1,
    revisedDocumentId: V2,
    state,
    error: null,
    counts: state === 'done' ? { substantive: 1, formatOnly: 1, moves: 0 } : null,
    createdBy: 'user-1',
    createdAt: '2026-12-07T10:00:00.000Z',
    finishedAt: null,
    job: {
      jobId: JOB,
      status: state === 'done' ? 'succeeded' : 'running',
      progress: 0.4,
      message: null,
    },
    result:
      state === 'done'
        ? {
            baseLength: BASE.length,
            revisedLength: REVISED.length,
            baseSha256: 'a',
            revisedSha256: 'b',
            baseClauses: [
              clause(BASE, '1. Term. Notice is thirty days.', '1.', 'Term'),
              clause(BASE, '2. Law. English law governs.', '2.', 'Law'),
            ],
            revisedClauses: [
              clause(REVISED, '1. Term. Notice is sixty days.', '1.', 'Term'),
              clause(REVISED, '2. Law.  English law governs.', '2.', 'Law'),
            ],
            pairs: [
              { base: 0, revised: 0, relation: 'modified' },
              { base: 1, revised: 1, relation: 'format' },
            ],
            changes: [PERIOD, SPACING],
            segments: [],
            textsCut: false,
          }
        : null,
  }
}

function renderComparisons(path: string, state: Comparison['state'] = 'done') {
  const stub = stubFetch({
    [`GET ${url}`]: () => jsonResponse({ items: [comparison(state)], total: 1 }),
    [`GET ${url}/${ID}`]: () => jsonResponse(comparison(state)),
    [`POST ${url}`]: () =>
      jsonResponse(
        {
          ...comparison('queued'),
          job: makeJob({ id: JOB, kind: 'comparison', status: 'queued' }),
        },
        202,
      ),
    [`GET /api/v1/orgs/${ORG}/jobs/${JOB}`]: () =>
      jsonResponse(
        makeJob({
          id: JOB,
          kind: 'comparison',
          status: 'running',
          progress: 0.4,
          message: 'Comparing clause by clause',
        }),
      ),
    [`GET /api/v1/orgs/${ORG}/documents`]: () =>
      jsonResponse({
        items: [
          { ...makeDocumentDetail(BASE, { id: V1, title: 'NDA v1' }), preview: '' },
          { ...makeDocumentDetail(REVISED, { id: V2, title: 'NDA v2' }), preview: '' },
        ],
        total: 2,
      }),
    [`GET /api/v1/orgs/${ORG}/documents/${V1}`]: () =>
      jsonResponse(makeDocumentDetail(BASE, { id: V1, title: 'NDA v1' })),
    [`GET /api/v1/orgs/${ORG}/documents/${V2}`]: () =>
      jsonResponse(makeDocumentDetail(REVISED, { id: V2, title: 'NDA v2' })),
  })
  const rendered = renderWithRouter({
    routes: [{ path: '/', element: inOrgScope(<ComparisonsPage />) }],
    initialPath: path,
  })
  return { stub, rendered }
}

describe('ComparisonsPage', () => {
  it('lists the changes clause by clause, each marking its place in both versions', async () => {
    renderComparisons(`/?comparison=${ID}`)
    const changes = await screen.findByRole('region', { name: 'Changes' })
    expect(
      await screen.findByText('1 substantive change, 0 moved clauses, 1 change of form only'),
    ).toBeVisible()
    expect(within(changes).getByRole('heading', { name: '§ 1. Term' })).toBeVisible()
    expect(within(changes).getByRole('heading', { name: '§ 2. Law' })).toBeVisible()
    expect(screen.getByRole('link', { name: /Redline \(Word/ })).toHaveAttribute(
      'href',
      `${url}/${ID}/redline.docx`,
    )
    expect(screen.getByRole('link', { name: /Redline \(HTML/ })).toHaveAttribute(
      'href',
      `${url}/${ID}/redline.html`,
    )

    const period = within(changes).getByRole('button', { name: /notice period changed/ })
    expect(period).toHaveTextContent(
      /Earlier § 1\. Term, characters 19–25 · Later § 1\. Term, characters 19–24/,
    )
    await userEvent.click(period)
    expect(period).toHaveAttribute('aria-pressed', 'true')
    await waitFor(() => expect(screen.getByTestId('deleted-mark')).toHaveTextContent('thirty'))
    expect(screen.getByTestId('inserted-mark')).toHaveTextContent('sixty')

    // The arrow key moves to the next change and marks it.
    await userEvent.keyboard('{ArrowDown}')
    const spacing = within(changes).getByRole('button', { name: /form: whitespace/ })
    expect(spacing).toHaveFocus()
    expect(spacing).toHaveAttribute('aria-pressed', 'true')
  })

  it('filters substantive changes from changes of form', async () => {
    renderComparisons(`/?comparison=${ID}`)
    const changes = await screen.findByRole('region', { name: 'Changes' })
    await within(changes).findByRole('button', { name: /form: whitespace/ })
    await userEvent.selectOptions(screen.getByLabelText('Show'), 'substantive')
    expect(within(changes).queryByRole('button', { name: /form: whitespace/ })).toBeNull()
    expect(within(changes).getByRole('button', { name: /notice period changed/ })).toBeVisible()
    await userEvent.selectOptions(screen.getByLabelText('Show'), 'format')
    expect(within(changes).queryByRole('button', { name: /notice period changed/ })).toBeNull()
  })

  it("shows the job's progress while the comparison runs", async () => {
    renderComparisons(`/?comparison=${ID}`, 'running')
    const socket = await FakeWebSocket.following(JOB)
    socket.sendJob(
      makeJob({
        id: JOB,
        kind: 'comparison',
        status: 'running',
        progress: 0.4,
        message: 'Comparing clause by clause',
      }),
    )
    expect(await screen.findByRole('progressbar', { name: 'Comparison progress' })).toBeVisible()
    expect(screen.getByText(/Comparing clause by clause/)).toBeVisible()
  })

  it('compares the document a "Compare with…" link names with the one picked', async () => {
    const { stub, rendered } = renderComparisons(`/?base=${V1}`)
    const form = await screen.findByRole('form', { name: 'New comparison' })
    const base = within(form).getByLabelText('Earlier version (base)')
    await waitFor(() => expect(base).toHaveValue(V1))
    const compare = within(form).getByRole('button', { name: 'Compare' })
    expect(compare).toBeDisabled()
    await userEvent.selectOptions(within(form).getByLabelText('Later version (their markup)'), V2)
    await userEvent.click(compare)
    await waitFor(() => expect(rendered.router.state.location.search).toBe(`?comparison=${ID}`))
    const posted = stub.requests.find((r) => r.method === 'POST')!
    expect(await posted.json()).toEqual({ baseDocumentId: V1, revisedDocumentId: V2 })
  })
})
