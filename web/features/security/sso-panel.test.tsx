import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import axe from 'axe-core'
import { describe, expect, it, vi } from 'vitest'
import { inOrgScope } from '../../test/in-org-scope'
import { renderWithRouter } from '../../test/render-with-router'
import { jsonResponse, stubFetch } from '../../test/stub-fetch'
import type { OrgRole } from '../../lib/org-role'
import type { SsoProvider } from './sso-api'
import { SsoPanel } from './sso-panel'

const ORG = 'org-1'
const PROVIDERS = `/api/v1/orgs/${ORG}/sso-providers`
const PENDING: SsoProvider = {
  providerId: 'sso-abc',
  type: 'oidc',
  issuer: 'https://login.acme.test',
  domains: ['acme.test'],
  domainVerified: false,
  verifiedVia: null,
  verifiedAt: null,
  requireSso: false,
  defaultRole: 'member',
  clientId: 'lexdesk',
  redirectUri: 'http://localhost:3000/api/auth/sso/callback/sso-abc',
  dnsRecord: { name: '_lexdesk-sso-sso-abc.acme.test', value: '_lexdesk-sso-sso-abc=tok' },
}
const VERIFIED: SsoProvider = {
  ...PENDING,
  domainVerified: true,
  verifiedVia: 'dns',
  verifiedAt: '2026-12-08T01:00:00.000Z',
  dnsRecord: null,
}

function renderPanel(role: OrgRole = 'owner') {
  return renderWithRouter({
    element: inOrgScope(<SsoPanel />, { orgId: ORG, appId: null, appSlug: null }, role),
  })
}

describe('SsoPanel', () => {
  it('shows a pending domain with its DNS record, verifies it by DNS and lets an owner attest', async () => {
    const user = userEvent.setup()
    const { requests, calls } = stubFetch({
      [`GET ${PROVIDERS}`]: () => jsonResponse({ providers: [PENDING] }),
      [`POST ${PROVIDERS}/sso-abc/verify-domain`]: () => jsonResponse(VERIFIED),
    })
    vi.spyOn(window, 'confirm').mockReturnValue(true)
    const { container } = renderPanel()
    expect(
      await screen.findByText('Domain not verified: nobody signs in through it yet'),
    ).toBeInTheDocument()
    expect(screen.getByText('_lexdesk-sso-sso-abc.acme.test')).toBeInTheDocument()
    expect(screen.getByText('_lexdesk-sso-sso-abc=tok')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Verify acme.test by DNS' }))
    await user.click(
      screen.getByRole('button', { name: 'Attest that the firm controls acme.test' }),
    )
    await waitFor(() =>
      expect(calls().filter((c) => c === `POST ${PROVIDERS}/sso-abc/verify-domain`)).toHaveLength(
        2,
      ),
    )
    const bodies = await Promise.all(
      requests.filter((r) => r.method === 'POST').map((r) => r.json() as Promise<unknown>),
    )
    expect(bodies).toEqual([{ method: 'dns' }, { method: 'attested' }])
    const results = await axe.run(container, { rules: { region: { enabled: false } } })
    expect(results.violations).toEqual([])
  })

  it('offers attestation to owners only, and requires SSO for a verified domain', async () => {
    const user = userEvent.setup()
    const { requests } = stubFetch({
      [`GET ${PROVIDERS}`]: () =>
        jsonResponse({
          providers: [VERIFIED, { ...PENDING, providerId: 'sso-def', domains: ['other.test'] }],
        }),
      [`PUT ${PROVIDERS}/sso-abc/require-sso`]: () =>
        jsonResponse({ ...VERIFIED, requireSso: true }),
    })
    renderPanel('admin')
    const require = await screen.findByRole('checkbox', {
      name: 'Require SSO for acme.test (e-mail sign-in links refused)',
    })
    expect(screen.queryByRole('button', { name: /Attest/ })).not.toBeInTheDocument()
    await user.click(require)
    await waitFor(() => expect(requests.some((r) => r.method === 'PUT')).toBe(true))
    expect(await requests.find((r) => r.method === 'PUT')?.json()).toEqual({ required: true })
  })

  it('adds an OIDC provider from the form', async () => {
    const user = userEvent.setup()
    const { requests } = stubFetch({
      [`GET ${PROVIDERS}`]: () => jsonResponse({ providers: [] }),
      [`POST ${PROVIDERS}`]: () => jsonResponse(PENDING, 201),
    })
    renderPanel()
    await screen.findByText('No provider yet.')
    await user.type(screen.getByLabelText('Issuer URL'), 'https://login.acme.test')
    await user.type(screen.getByLabelText('E-mail domain(s)'), 'Acme.test, london.acme.test')
    await user.type(screen.getByLabelText('Client ID'), 'lexdesk')
    await user.type(screen.getByLabelText('Client secret'), 's3cret')
    await user.selectOptions(screen.getByLabelText('Role of new members'), 'admin')
    await user.click(screen.getByRole('button', { name: 'Add provider' }))
    await waitFor(() => expect(requests.some((r) => r.method === 'POST')).toBe(true))
    expect(await requests.find((r) => r.method === 'POST')?.json()).toEqual({
      type: 'oidc',
      issuer: 'https://login.acme.test',
      clientId: 'lexdesk',
      clientSecret: 's3cret',
      domains: ['acme.test', 'london.acme.test'],
      defaultRole: 'admin',
    })
  })

  it('tells a member that only owners and admins manage single sign-on, without asking', async () => {
    const { calls } = stubFetch({})
    renderPanel('member')
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Only owners and admins manage single sign-on.',
    )
    expect(calls()).toEqual([])
  })
})
