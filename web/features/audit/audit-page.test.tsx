import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { inOrgScope } from '../../test/in-org-scope'
import { renderWithRouter } from '../../test/render-with-router'
import { jsonResponse, stubFetch } from '../../test/stub-fetch'
import type { AuditEntry } from './api'
import { AuditPage } from './audit-page'

const ORG = 'org-1'
const AUDIT = `/api/v1/orgs/${ORG}/audit`

function entry(overrides: Partial<AuditEntry>): AuditEntry {
  return {
    id: crypto.randomUUID(),
    actorType: 'user',
    actorId: 'u-1',
    actorName: 'Ada Counsel',
    credentialId: null,
    action: 'entity.update',
    targetType: 'entity',
    targetId: crypto.randomUUID(),
    targetExists: true,
    meta: { fields: ['name'] },
    createdAt: '2026-11-20T10:00:00.123456+00:00',
    ...overrides,
  }
}

const kept = entry({
  action: 'document.create',
  targetType: 'document',
  targetId: 'd0c00000-0000-4000-8000-000000000001',
})
const gone = entry({
  action: 'document.delete',
  targetType: 'document',
  targetId: 'd0c00000-0000-4000-8000-000000000002',
  targetExists: false,
})
const bySystem = entry({
  actorType: 'system',
  actorId: null,
  actorName: null,
  action: 'job.create',
})
const older = entry({ action: 'entity.create', createdAt: '2026-11-01T09:00:00+00:00' })

/** Answers the audit log in pages: the first three entries, then (cursor 'c2') the oldest. */
function stubAudit() {
  return stubFetch({
    [`GET ${AUDIT}`]: (request) => {
      const cursor = new URL(request.url).searchParams.get('cursor')
      return jsonResponse({
        items: cursor === 'c2' ? [older] : [kept, gone, bySystem],
        nextCursor: cursor === 'c2' ? null : 'c2',
        actions: ['document.create', 'document.delete', 'entity.create', 'job.create'],
        actors: [
          { id: 'u-1', name: 'Ada Counsel' },
          { id: 'u-2', name: 'Ben Clerk' },
        ],
      })
    },
  })
}

function renderPage() {
  return renderWithRouter({ element: inOrgScope(<AuditPage />, { orgId: ORG }) })
}

describe('AuditPage', () => {
  it("says Loading… while the first page loads, not 'No audit entries match.'", async () => {
    stubFetch({ [`GET ${AUDIT}`]: () => new Promise<Response>(() => {}) })
    renderPage()
    expect(await screen.findByRole('cell', { name: 'Loading…' })).toHaveAttribute(
      'aria-busy',
      'true',
    )
    expect(screen.queryByText('No audit entries match.')).toBeNull()
  })

  it('lists entries newest first with their actor, linking only targets that still exist', async () => {
    stubAudit()
    renderPage()
    await screen.findByText('document.create', { selector: 'td' })
    const rows = screen.getAllByRole('row')
    expect(rows.slice(1).map((row) => within(row).getAllByRole('cell')[2]?.textContent)).toEqual([
      'document.create',
      'document.delete',
      'job.create',
    ])
    expect(within(rows[1] as HTMLElement).getByRole('link')).toHaveAttribute(
      'href',
      `/dashboard/acme-law/documents?document=${kept.targetId}`,
    )
    expect(within(rows[2] as HTMLElement).queryByRole('link')).toBeNull()
    expect(within(rows[1] as HTMLElement).getByText('Ada Counsel')).toBeInTheDocument()
    expect(within(rows[3] as HTMLElement).getByText('System')).toBeInTheDocument()
  })

  it("names an imported entry's actor by the archive's e-mail, or as Imported, never as a user here", async () => {
    const imported = (actorName: string | null, action: string) =>
      entry({ actorType: 'imported', actorId: null, actorName, action, targetExists: false })
    stubFetch({
      [`GET ${AUDIT}`]: () =>
        jsonResponse({
          items: [
            imported('partner@old-firm.test', 'document.create'),
            imported(null, 'org.exported'),
          ],
          nextCursor: null,
          actions: ['document.create', 'org.exported'],
          actors: [],
        }),
    })
    renderPage()
    await screen.findByText('document.create', { selector: 'td' })
    const actors = screen
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row).getAllByRole('cell')[1]?.textContent)
    expect(actors).toEqual(['partner@old-firm.test (imported)', 'Imported'])
  })

  it('loads the next page from the cursor and stops at the last', async () => {
    const user = userEvent.setup()
    const { requests } = stubAudit()
    renderPage()
    await user.click(await screen.findByRole('button', { name: 'Load more' }))
    expect(await screen.findByText('entity.create', { selector: 'td' })).toBeInTheDocument()
    expect(new URL(requests.at(-1)?.url ?? '').searchParams.get('cursor')).toBe('c2')
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull())
  })

  it('sends the filters to the list and the CSV export', async () => {
    const user = userEvent.setup()
    const { requests } = stubAudit()
    renderPage()
    await screen.findByRole('option', { name: 'Ben Clerk' })
    await user.selectOptions(screen.getByLabelText('Actor'), 'u-2')
    await user.selectOptions(screen.getByLabelText('Action'), 'document.delete')
    await user.type(screen.getByLabelText('From'), '2026-11-01')
    await user.type(screen.getByLabelText('To'), '2026-11-30')
    const last = () => new URL(requests.at(-1)?.url ?? '').searchParams
    await waitFor(() =>
      expect(last().get('to')).toBe(new Date('2026-12-01T00:00:00').toISOString()),
    )
    expect(last().get('actorId')).toBe('u-2')
    expect(last().get('action')).toBe('document.delete')
    expect(last().get('from')).toBe(new Date('2026-11-01T00:00:00').toISOString())
    const href = screen.getByRole('link', { name: 'Export CSV' }).getAttribute('href') ?? ''
    const exported = new URL(href, 'http://localhost')
    expect(exported.pathname).toBe(`${AUDIT}/export`)
    expect(exported.searchParams.get('actorId')).toBe('u-2')
    expect(exported.searchParams.get('action')).toBe('document.delete')
    expect(exported.searchParams.get('to')).toBe(last().get('to'))
  })

  it('tells a member that only owners and admins read the log', async () => {
    stubFetch({
      [`GET ${AUDIT}`]: () =>
        new Response(
          JSON.stringify({ title: 'Forbidden', status: 403, detail: 'No', code: 'forbidden' }),
          { status: 403, headers: { 'content-type': 'application/problem+json' } },
        ),
    })
    renderPage()
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Only owners and admins can read the audit log.',
    )
  })
})
