import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { inOrgScope } from '../../test/in-org-scope'
import { renderWithRouter } from '../../test/render-with-router'
import { jsonResponse, stubFetch } from '../../test/stub-fetch'
import { makeDocumentDetail } from '../../test/document-factories'
import type { Playbook, PlaybookCheck, PlaybookVersion } from './api'
import { PlaybooksPage } from './playbooks-page'

const ORG = 'org-1'
const PB = '00000000-0000-4000-8000-0000000000b1'
const DOC = '00000000-0000-4000-8000-000000000d01'
const CHECK = '00000000-0000-4000-8000-0000000000c1'
const url = `/api/v1/orgs/${ORG}/playbooks`

const TEXT = 'MSA\n\n7. Governing Law. The laws of the State of New York govern this Agreement.\n'
const LAW = 'The laws of the State of New York govern this Agreement.'
const lawAt = { start: TEXT.indexOf(LAW), end: TEXT.indexOf(LAW) + LAW.length, text: LAW }

const playbook = (status: 'draft' | 'approved'): Playbook => ({
  id: PB,
  name: 'Supply (customer)',
  description: 'Our supply positions',
  currentVersion: status === 'approved' ? 1 : null,
  createdBy: 'user-1',
  createdAt: '2026-12-08T00:00:00.000Z',
  updatedAt: '2026-12-08T00:00:00.000Z',
  versions: [
    {
      number: 1,
      status,
      positionCount: 1,
      createdBy: 'user-1',
      createdAt: '2026-12-08T00:00:00.000Z',
      approvedBy: status === 'approved' ? 'user-1' : null,
      approvedAt: status === 'approved' ? '2026-12-08T00:00:00.000Z' : null,
    },
  ],
})

const version = (status: 'draft' | 'approved'): PlaybookVersion => ({
  ...playbook(status).versions[0]!,
  positions: [
    {
      id: 'governing-law',
      clauseType: 'Governing Law',
      title: 'Governing law',
      severity: 'medium',
      preferred: {
        language: 'The laws of England and Wales govern this Agreement.',
        rules: [{ kind: 'governing_law_in', laws: ['England'] }],
      },
      fallbacks: [
        {
          language: 'The laws of the State of New York govern this Agreement.',
          rules: [{ kind: 'governing_law_in', laws: ['New York'] }],
        },
      ],
      unacceptable: [],
      guidance: 'New York is acceptable for a US supplier.',
    },
  ],
})

const CHECKED: PlaybookCheck = {
  id: CHECK,
  appId: null,
  playbookId: PB,
  version: 1,
  documentId: DOC,
  status: 'done',
  counts: { compliant: 0, fallback: 1, deviation: 0, missing: 0 },
  createdBy: 'user-1',
  createdAt: '2026-12-08T00:00:00.000Z',
  results: [
    {
      positionId: 'governing-law',
      clauseType: 'Governing Law',
      title: 'Governing law',
      severity: 'medium',
      verdict: 'fallback',
      fallbackRank: 1,
      citation: lawAt,
      reading: null,
      decision: { by: 'language', stance: { kind: 'fallback', rank: 1 }, similarity: 1 },
      explanation: 'Matches fallback 1: governing law among New York (governing law: New York).',
      redline: {
        language: 'The laws of England and Wales govern this Agreement.',
        replaces: { start: lawAt.start, end: lawAt.end },
        fallbackLanguage: null,
      },
      guidance: 'New York is acceptable for a US supplier.',
    },
  ],
}

function renderPlaybooks(path: string, status: 'draft' | 'approved' = 'approved') {
  const stub = stubFetch({
    [`GET ${url}`]: () => jsonResponse({ items: [playbook(status)], total: 1 }),
    [`GET ${url}/starters`]: () =>
      jsonResponse({
        items: [
          { id: 'mutual-nda', name: 'Mutual NDA (starter)', description: '', positionCount: 6 },
        ],
      }),
    [`POST ${url}/starters/mutual-nda`]: () => jsonResponse(playbook('draft'), 201),
    [`GET ${url}/${PB}`]: () => jsonResponse(playbook(status)),
    [`GET ${url}/${PB}/versions/1`]: () => jsonResponse(version(status)),
    [`PUT ${url}/${PB}/versions/1`]: () => jsonResponse(version('draft')),
    [`POST ${url}/${PB}/versions/1/approve`]: () => jsonResponse(version('approved')),
    [`POST ${url}/${PB}/checks`]: () => jsonResponse(CHECKED),
    [`GET /api/v1/orgs/${ORG}/documents`]: () =>
      jsonResponse({
        items: [{ ...makeDocumentDetail(TEXT, { id: DOC, title: 'MSA' }), preview: '' }],
        total: 1,
      }),
    [`GET /api/v1/orgs/${ORG}/documents/${DOC}`]: () =>
      jsonResponse(makeDocumentDetail(TEXT, { id: DOC, title: 'MSA' })),
  })
  const rendered = renderWithRouter({
    routes: [{ path: '/', element: inOrgScope(<PlaybooksPage />) }],
    initialPath: path,
  })
  return { stub, rendered }
}

describe('PlaybooksPage', () => {
  it('checks the document a link names, each result opening its cited passage', async () => {
    const { stub } = renderPlaybooks(`/?playbook=${PB}&check=${DOC}`)
    const form = await screen.findByRole('form', { name: 'Check a document' })
    await waitFor(() => expect(within(form).getByLabelText('Document')).toHaveValue(DOC))
    await userEvent.click(within(form).getByRole('button', { name: 'Check' }))
    const results = await screen.findByRole('list', { name: 'Results per position' })
    const result = within(results).getByRole('button', { name: /Fallback 1.*Governing law/ })
    expect(screen.getByText('0 compliant, 1 on a fallback, 0 deviating, 0 missing')).toBeVisible()
    await userEvent.click(result)
    expect(result).toHaveAttribute('aria-pressed', 'true')
    await waitFor(() => expect(screen.getByTestId('citation-mark')).toHaveTextContent(LAW))
    const redline = screen.getByRole('region', { name: 'Suggested redline' })
    expect(redline).toHaveTextContent('The laws of England and Wales govern this Agreement.')
    expect(redline).toHaveTextContent('Guidance: New York is acceptable')
    expect(screen.getByRole('link', { name: /Suggested redline \(Word/ })).toHaveAttribute(
      'href',
      `${url}/${PB}/checks/${CHECK}/redline.docx`,
    )
    const posted = stub.requests.find((r) => r.method === 'POST')!
    expect(await posted.json()).toEqual({ documentId: DOC, version: 1 })
  })

  it('shows a version’s positions, edits a draft as JSON and approves it', async () => {
    const { stub } = renderPlaybooks(`/?playbook=${PB}`, 'draft')
    const positions = await screen.findByRole('region', { name: 'Positions' })
    expect(await within(positions).findByText(/Governing law/)).toBeVisible()
    expect(screen.getByRole('link', { name: 'Export JSON' })).toHaveAttribute(
      'href',
      `${url}/${PB}/export?version=1`,
    )
    await userEvent.click(within(positions).getByRole('button', { name: 'Edit positions' }))
    const editor = screen.getByLabelText(/Positions \(JSON/)
    expect((editor as HTMLTextAreaElement).value).toContain('"governing-law"')
    await userEvent.click(screen.getByRole('button', { name: 'Save draft' }))
    await waitFor(() => expect(stub.requests.some((r) => r.method === 'PUT')).toBe(true))
    await userEvent.click(within(positions).getByRole('button', { name: 'Approve version 1' }))
    await waitFor(() =>
      expect(stub.requests.some((r) => r.url.endsWith('/versions/1/approve'))).toBe(true),
    )
  })

  it('copies a starter playbook and opens it', async () => {
    const { rendered } = renderPlaybooks('/')
    const starters = await screen.findByRole('region', { name: 'Starter playbooks' })
    await userEvent.click(
      await within(starters).findByRole('button', { name: /Copy “Mutual NDA \(starter\)”/ }),
    )
    await waitFor(() => expect(rendered.router.state.location.search).toBe(`?playbook=${PB}`))
  })
})
