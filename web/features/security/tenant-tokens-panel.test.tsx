import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { inOrgScope } from '../../test/in-org-scope'
import { renderWithRouter } from '../../test/render-with-router'
import { jsonResponse, problemResponse, stubFetch } from '../../test/stub-fetch'
import type { TenantToken } from './tenant-tokens-api'
import { TenantTokensPanel } from './tenant-tokens-panel'

const ORG = 'org-1'
const TOKENS = `/api/v1/orgs/${ORG}/tokens`
const JTI = '7d0c0000-0000-4000-8000-000000000001'
const claims = {
  org_id: ORG,
  app_id: null,
  scope: 'read write',
  sub: 'u-1',
  jti: JTI,
  iat: 1_795_000_000,
  exp: 1_795_000_600,
}

/** base64url of `value`'s JSON, as a JWT segment. */
const segment = (value: object) =>
  btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
const token = `ldt_${segment({ alg: 'HS256', typ: 'JWT' })}.${segment(claims)}.c2lnbmF0dXJl`

const listed: TenantToken = {
  jti: JTI,
  appId: null,
  scope: 'read write',
  createdBy: 'u-1',
  createdAt: '2026-11-26T06:00:00.000Z',
  expiresAt: '2999-01-01T00:00:00.000Z',
  revokedAt: null,
}

function renderPanel() {
  return renderWithRouter({ element: inOrgScope(<TenantTokensPanel />, { orgId: ORG }) })
}

describe('TenantTokensPanel', () => {
  it('mints with the form, shows the token once and decodes its header, claims and expiry', async () => {
    const user = userEvent.setup()
    const { requests } = stubFetch({
      [`GET ${TOKENS}`]: () => jsonResponse({ items: [], total: 0 }),
      [`POST ${TOKENS}`]: () => jsonResponse({ token, claims }, 201),
    })
    renderPanel()
    await screen.findByText('No tokens minted yet.')
    await user.type(screen.getByLabelText('TTL seconds'), '600')
    await user.clear(screen.getByLabelText('Scopes'))
    await user.type(screen.getByLabelText('Scopes'), 'read')
    await user.click(screen.getByRole('button', { name: 'Mint token' }))
    expect(await screen.findByTestId('minted-token')).toHaveTextContent(token)
    const sent = requests.find((r) => r.method === 'POST')
    expect(await sent?.json()).toEqual({ ttl_seconds: '600', scope: 'read' })
    expect(screen.getByTestId('token-header')).toHaveTextContent('"alg": "HS256"')
    expect(screen.getByTestId('token-claims')).toHaveTextContent(`"jti": "${JTI}"`)
    expect(screen.getByText(/^Expires/)).toHaveTextContent(
      new Date(claims.exp * 1000).toLocaleString(),
    )
  })

  it('lists tokens and revokes one after confirmation', async () => {
    const user = userEvent.setup()
    vi.spyOn(window, 'confirm').mockReturnValue(true)
    let revoked = false
    const { calls } = stubFetch({
      [`GET ${TOKENS}`]: () =>
        jsonResponse({
          items: [{ ...listed, revokedAt: revoked ? '2026-11-26T06:10:00.000Z' : null }],
          total: 1,
        }),
      [`DELETE ${TOKENS}/${JTI}`]: () => {
        revoked = true
        return new Response(null, { status: 204 })
      },
    })
    renderPanel()
    const row = (await screen.findByText(JTI)).closest('tr') as HTMLElement
    expect(within(row).getByText('Active')).toBeInTheDocument()
    await user.click(within(row).getByRole('button', { name: `Revoke token ${JTI}` }))
    expect(window.confirm).toHaveBeenCalledWith('Revoke this token?')
    await waitFor(() => expect(within(row).getByText('Revoked')).toBeInTheDocument())
    expect(calls()).toContain(`DELETE ${TOKENS}/${JTI}`)
  })

  it("says why the tokens could not be listed, not 'No tokens minted yet.'", async () => {
    stubFetch({ [`GET ${TOKENS}`]: () => problemResponse(503, 'The database is restarting') })
    renderPanel()
    expect(
      await screen.findByText('The tokens could not be loaded: The database is restarting'),
    ).toHaveAttribute('role', 'alert')
    expect(screen.queryByText('No tokens minted yet.')).toBeNull()
  })

  it('tells a member why they cannot use it', async () => {
    stubFetch({ [`GET ${TOKENS}`]: () => problemResponse(403, 'needs admin') })
    renderPanel()
    expect(
      await screen.findByText('Only owners and admins can mint, list and revoke tenant tokens.'),
    ).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Mint token' })).toBeNull()
  })
})
