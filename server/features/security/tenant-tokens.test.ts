/**
 * Tenant tokens end to end through the real app (decision 0048): minting (defaults, limits,
 * scopes), calling the API with a token, revocation, expiry, tampering, the minter leaving, the
 * organisation in the path, and the RLS app clause shown below the services.
 */
import { and, eq, sql } from 'drizzle-orm'
import { decodeJwt, decodeProtectedHeader } from 'jose'
import { afterAll, describe, expect, it } from 'vitest'
import { auditLogs, documents, tenantTokens } from '../../db/schema'
import { withTenant } from '../../db/tenant'
import { tenantTokenJwt } from '../../auth/tenant-token-jwt'
import { mintToken } from '../../test/mint-token'
import { appOf } from '../../test/app-of'
import {
  buildTestApp,
  signedInMember,
  signedInWithRole,
  TEST_ORIGIN,
  TEST_SECRET,
  type TestMember,
} from '../../test/test-app'
import { membershipIdOf } from '../../test/membership-id'

const t = await buildTestApp()
afterAll(() => t.close())

const owner = await signedInMember(t, 'Token Firm')
const tokensUrl = `/api/v1/orgs/${owner.orgId}/tokens`

/** Mints a token as `actor` with `body`; returns the answer. */
function mint(body: Record<string, unknown> = {}, actor: TestMember = owner) {
  return t.app.inject({ method: 'POST', url: tokensUrl, headers: actor.headers, payload: body })
}

/** Mints a token as `actor` (default the owner) and returns it with its claims. */
const minted = (body: Record<string, unknown> = {}, actor: TestMember = owner) =>
  mintToken(t, actor, body)

/** Calls `url` with `token` as the only credential. */
function withToken(
  token: string,
  url: string,
  init: { method?: 'GET' | 'POST'; payload?: object } = {},
) {
  return t.app.inject({
    method: init.method ?? 'GET',
    url,
    headers: { authorization: `Bearer ${token}`, origin: TEST_ORIGIN },
    ...(init.payload ? { payload: init.payload } : {}),
  })
}

/** Creates a text document (in `appId`, if given) as `actor` and returns its id. */
async function documentIn(actor: TestMember, appId?: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/orgs/${actor.orgId}/documents/text`,
    headers: actor.headers,
    payload: { title: 'Engagement letter', content: 'The firm shall advise.', appId },
  })
  expect(res.statusCode, res.body).toBe(201)
  return (res.json() as { id: string }).id
}

function expectInvalidToken(res: { statusCode: number; headers: Record<string, unknown> }) {
  expect(res.statusCode).toBe(401)
  expect(res.headers['www-authenticate']).toBe('Bearer error="invalid_token"')
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
}

describe('minting', () => {
  it('signs a JWT with the claims of the issue, HS256, and keeps its row but never the token', async () => {
    const { token, claims } = await minted({ ttl_seconds: 600 })
    expect(token.startsWith('ldt_eyJ')).toBe(true)
    const jwt = token.slice(4)
    expect(decodeProtectedHeader(jwt)).toEqual({ alg: 'HS256', typ: 'JWT' })
    const decoded = decodeJwt(jwt)
    expect(decoded).toEqual(claims)
    expect(claims).toMatchObject({
      sub: owner.userId,
      org_id: owner.orgId,
      app_id: null,
      scope: 'read write',
    })
    expect(claims.exp - claims.iat).toBe(600)
    const [row] = await t.database.db
      .select()
      .from(tenantTokens)
      .where(eq(tenantTokens.jti, claims.jti))
    expect(row).toMatchObject({ orgId: owner.orgId, scope: 'read write', createdBy: owner.userId })
    expect(JSON.stringify(row)).not.toContain(jwt.split('.')[2])
    const [audit] = await t.database.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'token.mint'), eq(auditLogs.targetId, claims.jti)))
    expect(audit).toMatchObject({ actorType: 'user', actorId: owner.userId })
    expect(JSON.stringify(audit?.meta)).not.toContain(jwt.split('.')[2])
  })

  it.each([
    [{}],
    [{ ttl_seconds: '' }],
    [{ ttl_seconds: 'soon' }],
    [{ ttl_seconds: -5 }],
    [{ ttl_seconds: 1.5 }],
    [{ ttl_seconds: null }],
  ])('gives a token asked for %j one hour', async (body) => {
    const { claims } = await minted(body)
    expect(claims.exp - claims.iat).toBe(3600)
  })

  it('accepts the maximum of 86,400 seconds and refuses more with a problem saying so', async () => {
    const { claims } = await minted({ ttl_seconds: '86400' })
    expect(claims.exp - claims.iat).toBe(86_400)
    const res = await mint({ ttl_seconds: 86_401 })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ code: 'validation_failed' })
    expect(res.json().detail).toContain('at most 86400')
  })

  it('takes scopes separated by commas or spaces, and refuses unknown ones', async () => {
    expect((await minted({ scope: ' read, ,' })).claims.scope).toBe('read')
    expect((await minted({ scope: 'write read' })).claims.scope).toBe('write read')
    const res = await mint({ scope: 'read,everything' })
    expect(res.statusCode).toBe(400)
    expect(res.json().detail).toContain('everything')
  })

  it('refuses an app of another organisation as if it did not exist, storing nothing', async () => {
    const other = await signedInMember(t, 'Other Token Firm')
    const foreignApp = await appOf(t, other, 'foreign')
    const before = await t.database.db.$count(tenantTokens)
    const res = await mint({ app_id: foreignApp })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toMatchObject({ code: 'app_not_found' })
    expect(await t.database.db.$count(tenantTokens)).toBe(before)
  })
})

describe('calling the API with a token', () => {
  it('acts as a token principal whose writes are audited with its jti', async () => {
    const { token, claims } = await minted()
    const list = await withToken(token, `/api/v1/orgs/${owner.orgId}/documents`)
    expect(list.statusCode, list.body).toBe(200)
    const created = await withToken(token, `/api/v1/orgs/${owner.orgId}/documents/text`, {
      method: 'POST',
      payload: { title: 'By token', content: 'Written by a program.' },
    })
    expect(created.statusCode, created.body).toBe(201)
    const [audit] = await t.database.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'document.create'), eq(auditLogs.credentialId, claims.jti)))
    expect(audit).toMatchObject({ actorType: 'token', actorId: owner.userId })
  })

  it('is a 404 for another organisation, as for a non-member', async () => {
    const other = await signedInMember(t, 'Elsewhere')
    const { token } = await minted()
    const res = await withToken(token, `/api/v1/orgs/${other.orgId}/documents`)
    expect(res.statusCode).toBe(404)
    expect(res.json()).toMatchObject({ code: 'organization_not_found' })
  })

  it('is refused with 403 on an admin route without the admin scope', async () => {
    const { token } = await minted()
    const res = await withToken(token, tokensUrl)
    expect(res.statusCode).toBe(403)
  })

  it('is refused at once after its revocation, and is listed as revoked', async () => {
    const { token, claims } = await minted()
    const url = `/api/v1/orgs/${owner.orgId}/documents`
    expect((await withToken(token, url)).statusCode).toBe(200) // cached as live now
    const revoke = await t.app.inject({
      method: 'DELETE',
      url: `${tokensUrl}/${claims.jti}`,
      headers: owner.headers,
    })
    expect(revoke.statusCode, revoke.body).toBe(204)
    expectInvalidToken(await withToken(token, url))
    const list = await t.app.inject({ url: `${tokensUrl}?limit=200`, headers: owner.headers })
    const listed = (list.json() as { items: { jti: string; revokedAt: string | null }[] }).items
    expect(listed.find((item) => item.jti === claims.jti)?.revokedAt).not.toBeNull()
    expect(list.body).not.toContain(token.slice(4))
    const again = await t.app.inject({
      method: 'DELETE',
      url: `${tokensUrl}/${claims.jti}`,
      headers: owner.headers,
    })
    expect(again.statusCode).toBe(204)
  })

  it('answers 404 to the revocation of an unknown token', async () => {
    const res = await t.app.inject({
      method: 'DELETE',
      url: `${tokensUrl}/${crypto.randomUUID()}`,
      headers: owner.headers,
    })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toMatchObject({ code: 'token_not_found' })
  })

  it('refuses an expired token and a tampered one', async () => {
    const { claims } = await minted()
    const jwt = tenantTokenJwt(TEST_SECRET)
    const url = `/api/v1/orgs/${owner.orgId}/documents`
    const expired = await jwt.sign({ ...claims, iat: claims.iat - 7200, exp: claims.iat - 3600 })
    expectInvalidToken(await withToken(expired, url))
    const { token } = await minted()
    const [head, , signature] = token.split('.')
    const widened = Buffer.from(
      JSON.stringify({ ...claims, scope: 'read write admin', exp: claims.exp + 86_400 }),
    ).toString('base64url')
    expectInvalidToken(await withToken(`${head}.${widened}.${signature}`, url))
    const otherKey = await tenantTokenJwt('another-secret-another-secret-0123456789').sign(claims)
    expectInvalidToken(await withToken(otherKey, url))
  })

  it('is refused once its minter has left the organisation', async () => {
    const admin = await signedInWithRole(t, owner.orgId, 'admin')
    const { token } = await minted({}, admin)
    const url = `/api/v1/orgs/${owner.orgId}/documents`
    expect((await withToken(token, url)).statusCode).toBe(200)
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/orgs/${owner.orgId}/members/${await membershipIdOf(t, admin, owner.orgId)}`,
      headers: owner.headers,
    })
    expect(removed.statusCode, removed.body).toBe(204)
    expectInvalidToken(await withToken(token, url))
  })
})

describe('the RLS app clause', () => {
  it("confines an app-scoped principal to its app's rows in the database, below any service filter", async () => {
    const appA = await appOf(t, owner, 'litigation')
    const appB = await appOf(t, owner, 'tax')
    const inA = await documentIn(owner, appA)
    const inB = await documentIn(owner, appB)
    const orgWide = await documentIn(owner)
    const seen = (appId: string | null) =>
      withTenant(t.database.db, { orgId: owner.orgId, appId }, (tx) =>
        tx
          .select({ id: documents.id })
          .from(documents)
          .where(sql`${documents.id} in (${inA}, ${inB}, ${orgWide})`),
      )
    expect((await seen(appA)).map((r) => r.id)).toEqual([inA])
    expect((await seen(appB)).map((r) => r.id)).toEqual([inB])
    expect((await seen(null)).map((r) => r.id).sort()).toEqual([inA, inB, orgWide].sort())
    // Writing another app's row (or an organisation-wide one) is refused by WITH CHECK.
    await expect(
      withTenant(t.database.db, { orgId: owner.orgId, appId: appA }, (tx) =>
        tx.insert(documents).values({ orgId: owner.orgId, appId: appB, title: 'x', content: 'y' }),
      ),
    ).rejects.toThrow()
  })

  it("answers 404 to an app-scoped token reading another app's document, and lists only its app", async () => {
    const appA = await appOf(t, owner, 'matters')
    const appB = await appOf(t, owner, 'intake')
    const inA = await documentIn(owner, appA)
    const inB = await documentIn(owner, appB)
    const { token, claims } = await minted({ app_id: appA })
    expect(claims.app_id).toBe(appA)
    const base = `/api/v1/orgs/${owner.orgId}/documents`
    expect((await withToken(token, `${base}/${inA}`)).statusCode).toBe(200)
    const other = await withToken(token, `${base}/${inB}`)
    expect(other.statusCode).toBe(404)
    expect(other.json()).toMatchObject({ code: 'document_not_found' })
    const list = await withToken(token, `${base}?limit=200`)
    const ids = (list.json() as { items: { id: string }[] }).items.map((d) => d.id)
    expect(ids).toContain(inA)
    expect(ids).not.toContain(inB)
  })
})

describe('writing with an app-scoped token', () => {
  it('creates rows in its app (with their events) and refuses an organisation-wide one with a problem, not a crash', async () => {
    const appA = await appOf(t, owner, 'writes')
    const { token } = await minted({ app_id: appA })
    const url = `/api/v1/orgs/${owner.orgId}/entities`
    const inApp = await withToken(token, url, {
      method: 'POST',
      payload: { name: 'Client in app', appId: appA },
    })
    expect(inApp.statusCode, inApp.body).toBe(201)
    const orgWide = await withToken(token, url, { method: 'POST', payload: { name: 'Anywhere' } })
    expect(orgWide.statusCode, orgWide.body).toBe(403)
    expect(orgWide.json()).toMatchObject({ code: 'outside_app_scope' })
    const listed = await withToken(token, `${url}?limit=200`)
    expect(listed.body).toContain('Client in app')
    expect(listed.body).not.toContain('Anywhere')
  })
})

describe('tenant_tokens under RLS', () => {
  it("shows one organisation's tokens to no other", async () => {
    const { claims } = await minted()
    const other = await signedInMember(t, 'Nosy Firm')
    const seen = (orgId: string) =>
      withTenant(t.database.db, { orgId }, (tx) =>
        tx.select().from(tenantTokens).where(eq(tenantTokens.jti, claims.jti)),
      )
    expect(await seen(owner.orgId)).toHaveLength(1)
    expect(await seen(other.orgId)).toHaveLength(0)
    const revoked = await withTenant(t.database.db, { orgId: other.orgId }, (tx) =>
      tx
        .update(tenantTokens)
        .set({ revokedAt: new Date() })
        .where(eq(tenantTokens.jti, claims.jti))
        .returning(),
    )
    expect(revoked).toHaveLength(0)
    const listed = await t.app.inject({
      url: `/api/v1/orgs/${other.orgId}/tokens?limit=200`,
      headers: other.headers,
    })
    expect(listed.body).not.toContain(claims.jti)
  })
})
