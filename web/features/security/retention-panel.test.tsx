import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { inOrgScope } from '../../test/in-org-scope'
import { renderWithRouter } from '../../test/render-with-router'
import { jsonResponse, stubFetch } from '../../test/stub-fetch'
import type { OrgRole } from '../../lib/org-role'
import type { RetentionPolicy } from './retention-api'
import { RetentionPanel } from './retention-panel'

const ORG = 'org-1'
const APP = '5a0c0000-0000-4000-8000-000000000001'
const POLICIES = `/api/v1/orgs/${ORG}/retention-policies`
const ORG_DOCS: RetentionPolicy = {
  id: '7d0c0000-0000-4000-8000-000000000001',
  appId: null,
  kind: 'documents',
  keepDays: 2555,
  setBy: 'u-1',
  setAt: '2026-12-07T10:00:00.000Z',
}

function renderPanel(appId: string | null = APP, role: OrgRole = 'owner') {
  return renderWithRouter({
    element: inOrgScope(
      <RetentionPanel />,
      { orgId: ORG, appId, appSlug: appId ? 'smith-v-jones' : null },
      role,
    ),
  })
}

describe('RetentionPanel', () => {
  it("shows the organisation's policies and sets an app's own to forever and the organisation's to days", async () => {
    const user = userEvent.setup()
    const { requests } = stubFetch({
      [`GET ${POLICIES}`]: () => jsonResponse({ items: [ORG_DOCS] }),
      [`PUT ${POLICIES}`]: async (request) => {
        const body = (await request.json()) as Partial<RetentionPolicy>
        return jsonResponse({ ...ORG_DOCS, id: crypto.randomUUID(), appId: null, ...body })
      },
    })
    renderPanel()
    expect(await screen.findByText('Deleted 2555 days after the last change')).toBeInTheDocument()
    expect(screen.getAllByText('No policy: kept')).toHaveLength(4)

    await user.click(
      screen.getByRole('button', { name: 'Keep documents forever (app smith-v-jones)' }),
    )
    await user.type(screen.getByLabelText('Days to keep recordings (organization)'), '365')
    await user.click(
      screen.getByRole('button', { name: 'Set days to keep recordings (organization)' }),
    )
    await waitFor(() => expect(requests.filter((r) => r.method === 'PUT')).toHaveLength(2))
    const sent = await Promise.all(
      requests.filter((r) => r.method === 'PUT').map((r) => r.json() as Promise<unknown>),
    )
    expect(sent).toEqual([
      { kind: 'documents', appId: APP, keepDays: null },
      { kind: 'recordings', keepDays: 365 },
    ])
  })

  it('refuses days out of range before asking the server', async () => {
    const user = userEvent.setup()
    stubFetch({ [`GET ${POLICIES}`]: () => jsonResponse({ items: [] }) })
    renderPanel(null)
    await screen.findByText('Choose an app to give it policies of its own.')
    const days = screen.getByLabelText('Days to keep documents (organization)')
    const set = screen.getByRole('button', {
      name: 'Set days to keep documents (organization)',
    })
    await user.type(days, '0')
    expect(set).toBeDisabled()
    await user.clear(days)
    await user.type(days, '36501')
    expect(set).toBeDisabled()
    await user.clear(days)
    await user.type(days, '30')
    expect(set).toBeEnabled()
  })

  it('clears a policy only after confirmation, runs retention now and links the report of a period', async () => {
    const user = userEvent.setup()
    const { calls } = stubFetch({
      [`GET ${POLICIES}`]: () => jsonResponse({ items: [ORG_DOCS] }),
      [`DELETE ${POLICIES}/${ORG_DOCS.id}`]: () => new Response(null, { status: 204 }),
      [`POST /api/v1/orgs/${ORG}/retention-runs`]: () =>
        jsonResponse({ id: crypto.randomUUID(), kind: 'retention', status: 'queued' }, 202),
    })
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValue(true)
    renderPanel(null)
    const clear = await screen.findByRole('button', {
      name: 'Clear the documents policy (organization)',
    })
    await user.click(clear)
    expect(calls()).not.toContain(`DELETE ${POLICIES}/${ORG_DOCS.id}`)
    await user.click(clear)
    expect(confirm).toHaveBeenCalledWith('Clear this retention policy?')
    await waitFor(() => expect(calls()).toContain(`DELETE ${POLICIES}/${ORG_DOCS.id}`))

    await user.click(screen.getByRole('button', { name: 'Run now' }))
    await waitFor(() => expect(calls()).toContain(`POST /api/v1/orgs/${ORG}/retention-runs`))

    await user.type(screen.getByLabelText('From'), '2026-01-01')
    const link = screen.getByRole('link', { name: 'Download the deletion report (CSV)' })
    const url = new URL(link.getAttribute('href') ?? '', 'http://localhost')
    expect(url.pathname).toBe(`/api/v1/orgs/${ORG}/retention-report`)
    expect(url.searchParams.get('format')).toBe('csv')
    expect(url.searchParams.get('from')).toBe(new Date('2026-01-01T00:00:00').toISOString())
    expect(link).toHaveAttribute('download')
  })

  it('tells a member that only owners and admins manage retention, without asking the server', async () => {
    const { calls } = stubFetch({})
    renderPanel(APP, 'member')
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Only owners and admins manage retention.',
    )
    expect(calls()).toEqual([])
  })
})
