/**
 * Single sign-on end to end (issue 45, decision 0152) against a real OpenID Connect provider
 * started here (oidc-provider on 127.0.0.1): an owner registers it, its domain is verified (DNS
 * TXT through a local resolver, or attested by an owner), a person of that domain signs in by the
 * authorization-code flow with PKCE and joins the organisation with the default role; once SSO is
 * required for the domain, its e-mail links are refused. Another organisation never reaches the
 * providers, and a plain member cannot manage them.
 */
import { and, eq, sql } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { auditLogs, member, user } from '../../db/schema'
import {
  aliceAndMallory,
  followLink,
  requestMagicLink,
  signedInWithRole,
  TEST_ORIGIN,
  testAppForFile,
  type TestApp,
  type TestMember,
} from '../../test/test-app'
import { signInAt, startOidcIdp } from '../../test/oidc-idp'

const idp = await startOidcIdp([])
afterAll(() => idp.close())
/** The TXT records the test has "published", by name. */
const dns = new Map<string, string[][]>()
const t: TestApp = await testAppForFile({
  env: { SSO_IDP_ORIGINS: idp.issuer },
  resolveTxt: async (name) => {
    const records = dns.get(name)
    if (!records)
      throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' })
    return records
  },
})
const { alice, mallory } = await aliceAndMallory(t)

const api = (
  who: TestMember,
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  path: string,
  payload?: object,
) =>
  t.app.inject({
    method,
    url: `/api/v1/orgs/${who.orgId}/sso-providers${path}`,
    headers: who.headers,
    ...(payload && { payload }),
  })

interface ProviderView {
  providerId: string
  redirectUri: string
  domainVerified: boolean
  verifiedVia: string | null
  requireSso: boolean
  defaultRole: string
  clientId: string | null
  dnsRecord: { name: string; value: string } | null
}

/** Cookies of an inject response, as one Cookie header (name=value; …), merged over `old`. */
function cookiesOf(setCookie: string | string[] | undefined, old = ''): string {
  const jar = new Map(
    old
      .split('; ')
      .filter(Boolean)
      .map((pair) => [pair.split('=')[0], pair] as const),
  )
  for (const cookie of Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []) {
    const pair = cookie.split(';')[0] ?? ''
    jar.set(pair.split('=')[0], pair)
  }
  return [...jar.values()].join('; ')
}

/**
 * The whole OIDC sign-in of `email` as a browser makes it: Lexdesk's /sign-in/sso, the IdP's
 * login, Lexdesk's callback. Returns the callback's response and the browser's cookies.
 */
async function ssoSignIn(email: string) {
  const start = await t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/sso',
    headers: { origin: TEST_ORIGIN },
    payload: { email, callbackURL: '/dashboard' },
  })
  if (start.statusCode !== 200) return { response: start, cookie: '' }
  const { url } = start.json() as { url: string }
  let cookie = cookiesOf(start.headers['set-cookie'])
  const back = new URL(await signInAt(url, email))
  expect(back.origin).toBe(TEST_ORIGIN)
  const response = await t.app.inject({
    method: 'GET',
    url: back.pathname + back.search,
    headers: { cookie },
  })
  cookie = cookiesOf(response.headers['set-cookie'], cookie)
  return { response, cookie }
}

/** The clients registered at the IdP so far (each test's provider has its own). */
const clients: { clientId: string; clientSecret: string; redirectUris: string[] }[] = []

/**
 * Registers an OIDC provider for `domain` in alice's organisation, registers its callback at the
 * IdP (as a firm's IdP admin does), and, with `verify`, publishes its TXT record and verifies it.
 */
async function providerFor(domain: string, verify = true): Promise<ProviderView> {
  const clientId = `client-${domain}`
  const res = await api(alice, 'POST', '', {
    issuer: idp.issuer,
    clientId,
    clientSecret: `secret-of-${domain}`,
    domains: [domain],
  })
  expect(res.statusCode, res.body).toBe(201)
  const created = res.json() as ProviderView
  clients.push({
    clientId,
    clientSecret: `secret-of-${domain}`,
    redirectUris: [created.redirectUri],
  })
  await idp.restart(clients)
  if (!verify) return created
  const record = created.dnsRecord as { name: string; value: string }
  dns.set(record.name, [[record.value]])
  const verified = await api(alice, 'POST', `/${created.providerId}/verify-domain`, {
    method: 'dns',
  })
  expect(verified.statusCode, verified.body).toBe(200)
  return verified.json() as ProviderView
}

describe('single sign-on through a local OpenID Connect provider', () => {
  it('registers a provider with its secret encrypted at rest and its domain unverified', async () => {
    const res = await api(alice, 'POST', '', {
      issuer: idp.issuer,
      clientId: 'lexdesk-test',
      clientSecret: 'idp-client-secret-value',
      domains: ['registered.test'],
    })
    expect(res.statusCode, res.body).toBe(201)
    const provider = res.json() as ProviderView
    expect(provider).toMatchObject({
      domainVerified: false,
      requireSso: false,
      defaultRole: 'member',
      clientId: 'lexdesk-test',
    })
    expect(res.body).not.toContain('idp-client-secret-value')
    expect(provider.redirectUri).toBe(`${TEST_ORIGIN}/api/auth/sso/callback/${provider.providerId}`)
    expect(provider.dnsRecord?.name).toBe(`_lexdesk-sso-${provider.providerId}.registered.test`)
    const raw = (await t.database.db.execute(
      sql`select oidc_config from sso_provider where provider_id = ${provider.providerId}`,
    )) as unknown as { rows: { oidc_config: string }[] }
    expect(raw.rows[0]?.oidc_config).not.toContain('idp-client-secret-value')
    expect(JSON.parse(raw.rows[0]?.oidc_config ?? '{}').clientSecret).toMatch(/^enc:v1:/)
    const audit = await t.database.db
      .select({ meta: auditLogs.meta })
      .from(auditLogs)
      .where(and(eq(auditLogs.orgId, alice.orgId), eq(auditLogs.action, 'sso_provider.create')))
    expect(audit).toContainEqual({
      meta: expect.objectContaining({ domains: ['registered.test'] }),
    })
  })

  it('refuses an issuer on an origin SSO_IDP_ORIGINS does not allow', async () => {
    const res = await api(alice, 'POST', '', {
      issuer: 'http://127.0.0.2:9/',
      clientId: 'x',
      clientSecret: 'y',
      domains: ['elsewhere.test'],
    })
    expect(res.statusCode).toBeGreaterThanOrEqual(400)
    expect(res.statusCode).toBeLessThan(500)
  })

  it('refuses explicit endpoints outside SSO_IDP_ORIGINS', async () => {
    const res = await api(alice, 'POST', '', {
      issuer: idp.issuer,
      endpoints: {
        authorization: `${idp.issuer}/auth`,
        token: 'https://tokens.elsewhere.example/token',
        jwks: `${idp.issuer}/jwks`,
      },
      clientId: 'x',
      clientSecret: 'y',
      domains: ['endpoints.test'],
    })
    expect(res.statusCode).toBe(400)
    expect(res.json().detail).toContain('https://tokens.elsewhere.example')
  })

  it('signs nobody in until the domain is verified, then verifies it by its DNS TXT record', async () => {
    const provider = await providerFor('unverified.test', false)
    idp.accounts.set('jane@unverified.test', { name: 'Jane Doe' })
    const early = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/sso',
      headers: { origin: TEST_ORIGIN },
      payload: { email: 'jane@unverified.test', callbackURL: '/dashboard' },
    })
    expect(early.statusCode).toBeGreaterThanOrEqual(400)
    const missing = await api(alice, 'POST', `/${provider.providerId}/verify-domain`, {
      method: 'dns',
    })
    expect(missing.statusCode).toBe(422)
    expect(missing.json()).toMatchObject({ code: 'domain_not_verified' })
    const record = provider.dnsRecord as { name: string; value: string }
    dns.set(record.name, [['some other record']])
    expect(
      (await api(alice, 'POST', `/${provider.providerId}/verify-domain`, { method: 'dns' }))
        .statusCode,
    ).toBe(422)
    dns.set(record.name, [[record.value]])
    const verified = await api(alice, 'POST', `/${provider.providerId}/verify-domain`, {
      method: 'dns',
    })
    expect(verified.statusCode, verified.body).toBe(200)
    expect(verified.json()).toMatchObject({ domainVerified: true, verifiedVia: 'dns' })
    const { response } = await ssoSignIn('jane@unverified.test')
    expect(response.statusCode, response.body).toBe(302)
  })

  it('signs a person in by the authorization-code flow and makes them a member with the default role', async () => {
    const provider = await providerFor('acme-sso.test')
    idp.accounts.set('jane@acme-sso.test', { name: 'Jane Doe' })
    const { response, cookie } = await ssoSignIn('jane@acme-sso.test')
    expect(response.statusCode, response.body).toBe(302)
    expect(response.headers.location).toMatch(/\/dashboard$/)
    const session = await t.app.inject({
      method: 'GET',
      url: '/api/auth/get-session',
      headers: { cookie },
    })
    const { user: signedIn } = session.json() as { user: { id: string; email: string } }
    expect(signedIn.email).toBe('jane@acme-sso.test')
    const [membership] = await t.database.db
      .select({ role: member.role })
      .from(member)
      .where(and(eq(member.organizationId, alice.orgId), eq(member.userId, signedIn.id)))
    expect(membership?.role).toBe('member')
    const joins = await t.database.db
      .select({ meta: auditLogs.meta, actorId: auditLogs.actorId })
      .from(auditLogs)
      .where(and(eq(auditLogs.orgId, alice.orgId), eq(auditLogs.action, 'member.join')))
    expect(joins).toContainEqual({
      meta: expect.objectContaining({ via: 'sso', providerId: provider.providerId }),
      actorId: signedIn.id,
    })
    // A second sign-in finds the member: no second membership.
    const again = await ssoSignIn('jane@acme-sso.test')
    expect(again.response.statusCode).toBe(302)
    const [{ count } = { count: 0 }] = await t.database.db
      .select({ count: sql<number>`count(*)::int` })
      .from(member)
      .innerJoin(user, eq(user.id, member.userId))
      .where(eq(user.email, 'jane@acme-sso.test'))
    expect(count).toBe(1)
    // Removed at the IdP: the IdP refuses the next sign-in.
    idp.accounts.delete('jane@acme-sso.test')
    await expect(ssoSignIn('jane@acme-sso.test')).rejects.toThrow(/IdP answered 403/)
  })

  it('refuses e-mail links for the domain once SSO is required, with a clear problem', async () => {
    const provider = await providerFor('required.test')
    const before = await requestMagicLink(t, 'old-link@required.test')
    const required = await api(alice, 'PUT', `/${provider.providerId}/require-sso`, {
      required: true,
    })
    expect(required.statusCode, required.body).toBe(200)
    expect(required.json()).toMatchObject({ requireSso: true })
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/magic-link',
      headers: { origin: TEST_ORIGIN },
      payload: { email: 'Someone@REQUIRED.test', callbackURL: '/dashboard' },
    })
    expect(refused.statusCode).toBe(403)
    expect(refused.headers['content-type']).toContain('application/problem+json')
    expect(refused.json()).toMatchObject({ code: 'sso_required' })
    expect(refused.json().detail).toMatch(/single sign-on/)
    // A subdomain is covered too; another domain is not.
    const sub = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/magic-link',
      headers: { origin: TEST_ORIGIN },
      payload: { email: 'x@london.required.test', callbackURL: '/dashboard' },
    })
    expect(sub.statusCode).toBe(403)
    await expect(requestMagicLink(t, 'someone@other-firm.test')).resolves.toContain('token=')
    // A link sent before SSO was required no longer signs in.
    const followed = await followLink(t, before)
    expect(followed.statusCode).toBe(302)
    expect(followed.headers.location).toContain('error=SSO_REQUIRED')
    expect(followed.headers['set-cookie']).toBeUndefined()
    const off = await api(alice, 'PUT', `/${provider.providerId}/require-sso`, { required: false })
    expect(off.json()).toMatchObject({ requireSso: false })
    await expect(requestMagicLink(t, 'again@required.test')).resolves.toContain('token=')
    const actions = await t.database.db
      .select({ meta: auditLogs.meta })
      .from(auditLogs)
      .where(
        and(eq(auditLogs.orgId, alice.orgId), eq(auditLogs.action, 'sso_provider.require_sso')),
      )
    expect(actions).toHaveLength(2)
  })

  it('requires a verified domain before requiring SSO', async () => {
    const provider = await providerFor('not-yet.test', false)
    const res = await api(alice, 'PUT', `/${provider.providerId}/require-sso`, { required: true })
    expect(res.statusCode).toBe(422)
    await expect(requestMagicLink(t, 'still@not-yet.test')).resolves.toContain('token=')
  })

  it('lets an owner attest a domain without DNS, and nobody else', async () => {
    const created = await api(alice, 'POST', '', {
      issuer: idp.issuer,
      clientId: 'second-client',
      clientSecret: 'second-secret',
      domains: ['no-dns.test'],
      defaultRole: 'admin',
    })
    expect(created.statusCode, created.body).toBe(201)
    const second = created.json() as ProviderView
    const admin = await signedInWithRole(t, alice.orgId, 'admin')
    const byAdmin = await api(admin, 'POST', `/${second.providerId}/verify-domain`, {
      method: 'attested',
    })
    expect(byAdmin.statusCode).toBe(403)
    const byOwner = await api(alice, 'POST', `/${second.providerId}/verify-domain`, {
      method: 'attested',
    })
    expect(byOwner.statusCode, byOwner.body).toBe(200)
    expect(byOwner.json()).toMatchObject({
      domainVerified: true,
      verifiedVia: 'attested',
      defaultRole: 'admin',
    })
    const attested = await t.database.db
      .select({ meta: auditLogs.meta, actorId: auditLogs.actorId })
      .from(auditLogs)
      .where(
        and(eq(auditLogs.orgId, alice.orgId), eq(auditLogs.action, 'sso_provider.verify_domain')),
      )
    expect(attested).toContainEqual({
      meta: expect.objectContaining({ method: 'attested' }),
      actorId: alice.userId,
    })
  })

  it('keeps providers inside their organisation and away from plain members', async () => {
    const provider = await providerFor('walled.test', false)
    const own = await api(mallory, 'GET', '')
    expect(own.statusCode).toBe(200)
    expect(own.json()).toEqual({ providers: [] })
    for (const [method, path, payload] of [
      ['PATCH', `/${provider.providerId}`, { defaultRole: 'admin' }],
      ['DELETE', `/${provider.providerId}`, undefined],
      ['PUT', `/${provider.providerId}/require-sso`, { required: true }],
      ['POST', `/${provider.providerId}/verify-domain`, { method: 'attested' }],
    ] as const) {
      const res = await api(mallory, method, path, payload)
      expect(res.statusCode, `${method} ${path}`).toBe(404)
    }
    const plain = await signedInWithRole(t, alice.orgId, 'member')
    expect((await api(plain, 'GET', '')).statusCode).toBe(403)
    const listed = await api(alice, 'GET', '')
    const providers = (listed.json() as { providers: ProviderView[] }).providers
    expect(providers.map((p) => p.providerId)).toContain(provider.providerId)
    expect(listed.body).not.toMatch(/secret-of-|clientSecret/)
  })

  it('changes and deletes a provider, audited', async () => {
    const provider = await providerFor('changing.test')
    const changed = await api(alice, 'PATCH', `/${provider.providerId}`, {
      defaultRole: 'admin',
      clientSecret: 'rotated-secret',
    })
    expect(changed.statusCode, changed.body).toBe(200)
    expect(changed.json()).toMatchObject({ defaultRole: 'admin', domainVerified: true })
    const moved = await api(alice, 'PATCH', `/${provider.providerId}`, {
      domains: ['new-changing.test'],
    })
    expect(moved.statusCode, moved.body).toBe(200)
    expect(moved.json()).toMatchObject({ domainVerified: false, verifiedVia: null })
    const deleted = await api(alice, 'DELETE', `/${provider.providerId}`)
    expect(deleted.statusCode, deleted.body).toBe(204)
    expect((await api(alice, 'DELETE', `/${provider.providerId}`)).statusCode).toBe(404)
    const actions = await t.database.db
      .select({ action: auditLogs.action, meta: auditLogs.meta })
      .from(auditLogs)
      .where(
        and(eq(auditLogs.orgId, alice.orgId), sql`${auditLogs.targetId} = ${provider.providerId}`),
      )
    expect(actions.map((a) => a.action)).toEqual(
      expect.arrayContaining(['sso_provider.update', 'sso_provider.delete']),
    )
    expect(JSON.stringify(actions)).not.toContain('rotated-secret')
  })
})
