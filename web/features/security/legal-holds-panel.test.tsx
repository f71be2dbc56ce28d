import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { inOrgScope } from '../../test/in-org-scope'
import { renderWithRouter } from '../../test/render-with-router'
import { jsonResponse, stubFetch } from '../../test/stub-fetch'
import type { OrgRole } from '../../lib/org-role'
import type { LegalHold } from './legal-holds-api'
import { LegalHoldsPanel } from './legal-holds-panel'

const ORG = 'org-1'
const APP = '5a0c0000-0000-4000-8000-000000000001'
const HOLDS = `/api/v1/orgs/${ORG}/legal-holds`
const HOLD: LegalHold = {
  id: '7d0c0000-0000-4000-8000-000000000009',
  targetKind: 'app',
  targetId: APP,
  reason: 'Preservation order in Smith v. Jones',
  createdBy: 'u-1',
  createdAt: '2026-12-07T10:00:00.000Z',
  releasedBy: null,
  releasedAt: null,
}

function renderPanel(appId: string | null = APP, role: OrgRole = 'owner') {
  return renderWithRouter({
    element: inOrgScope(
      <LegalHoldsPanel />,
      { orgId: ORG, appId, appSlug: appId ? 'smith-v-jones' : null },
      role,
    ),
  })
}

describe('LegalHoldsPanel', () => {
  it("places a hold on the chosen app with its reason, and lists it by the app's name", async () => {
    const user = userEvent.setup()
    let listed: LegalHold[] = []
    const { requests } = stubFetch({
      [`GET ${HOLDS}`]: () => jsonResponse({ items: listed, total: listed.length }),
      [`POST ${HOLDS}`]: () => {
        listed = [HOLD]
        return jsonResponse(HOLD, 201)
      },
    })
    renderPanel()
    await screen.findByText('No legal hold stands.')
    await user.type(
      screen.getByLabelText('Reason for holding smith-v-jones'),
      'Preservation order in Smith v. Jones',
    )
    await user.click(screen.getByRole('button', { name: 'Place legal hold' }))
    expect(await screen.findByText('App smith-v-jones')).toBeInTheDocument()
    const sent = requests.find((r) => r.method === 'POST')
    expect(await sent?.json()).toEqual({
      targetKind: 'app',
      targetId: APP,
      reason: 'Preservation order in Smith v. Jones',
    })
    const list = requests.find((r) => r.method === 'GET')
    expect(new URL(list!.url).searchParams.get('inForce')).toBe('true')
  })

  it('releases a hold only after confirmation', async () => {
    const user = userEvent.setup()
    const { calls } = stubFetch({
      [`GET ${HOLDS}`]: () => jsonResponse({ items: [HOLD], total: 1 }),
      [`DELETE ${HOLDS}/${HOLD.id}`]: () =>
        jsonResponse({ ...HOLD, releasedAt: '2026-12-07T11:00:00.000Z', releasedBy: 'u-1' }),
    })
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValue(true)
    renderPanel()
    const button = await screen.findByRole('button', {
      name: 'Release the hold on App smith-v-jones',
    })
    await user.click(button)
    expect(calls()).not.toContain(`DELETE ${HOLDS}/${HOLD.id}`)
    await user.click(button)
    expect(confirm).toHaveBeenCalledWith('Release this legal hold?')
    await waitFor(() => expect(calls()).toContain(`DELETE ${HOLDS}/${HOLD.id}`))
  })

  it('asks for an app before placing one', async () => {
    stubFetch({ [`GET ${HOLDS}`]: () => jsonResponse({ items: [], total: 0 }) })
    renderPanel(null)
    expect(
      await screen.findByText('Choose an app to place a legal hold on it.'),
    ).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Place legal hold' })).toBeNull()
  })

  it('tells a member that only owners and admins manage holds, without asking the server', async () => {
    const { calls } = stubFetch({})
    renderPanel(APP, 'member')
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Only owners and admins manage legal holds.',
    )
    expect(calls()).toEqual([])
  })
})
