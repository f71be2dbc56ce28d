/**
 * Issue 41's credentials that widened or outlived themselves, end to end through the real app
 * (decision 0104): a credential creates only credentials with scopes it has, in its app, ending no
 * later than itself; each is refused once any credential it was made with is revoked (at the
 * request, whatever the revocation's cascade reached); and a removed or demoted creator's key
 * loses their rights at once, though it was just used.
 */
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { apiKeys, tenantTokens } from '../db/schema'
import { appOf } from '../test/app-of'
import { askForApiKey, createApiKey, setMemberRole, type CreatedApiKey } from '../test/api-keys'
import { membershipIdOf } from '../test/membership-id'
import {
  testAppForFile,
  signedInMember,
  signedInWithRole,
  TEST_ORIGIN,
  type TestMember,
} from '../test/test-app'

const t = await testAppForFile()

const keysUrl = (m: TestMember) => `/api/v1/orgs/${m.orgId}/api-keys`
const tokensUrl = (m: TestMember) => `/api/v1/orgs/${m.orgId}/tokens`
const documentsUrl = (m: TestMember) => `/api/v1/orgs/${m.orgId}/documents`
const bearer = (credential: string) => ({
  authorization: `Bearer ${credential}`,
  origin: TEST_ORIGIN,
})

/** What a key or token is asked for with (name, scopes, app, expiry). */
type Payload = Record<string, unknown>

/** Asks for a key in `org`'s organisation with `headers` (a session's or a credential's). */
const askKey = (org: TestMember, headers: Record<string, string>, payload: Payload = {}) =>
  askForApiKey(t, org, payload, headers)
/** A key made with `headers`; fails the test unless it is made. */
const keyBy = (org: TestMember, headers: Record<string, string>, payload: Payload = {}) =>
  createApiKey(t, org, payload, headers)

/** Asks for a tenant token in `org`'s organisation with `headers`. */
function askToken(
  org: TestMember,
  headers: Record<string, string>,
  payload: Record<string, unknown> = {},
) {
  return t.app.inject({ method: 'POST', url: tokensUrl(org), headers, payload })
}

/** A token minted with `headers`; fails the test unless it is minted. */
async function tokenBy(
  org: TestMember,
  headers: Record<string, string>,
  payload: Record<string, unknown> = {},
) {
  const res = await askToken(org, headers, payload)
  expect(res.statusCode, res.body).toBe(201)
  return res.json() as {
    token: string
    claims: { jti: string; exp: number; app_id: string | null }
  }
}

/** The status of a read of `org`'s documents with `credential`. */
async function readStatus(org: TestMember, credential: string): Promise<number> {
  return (await t.app.inject({ url: documentsUrl(org), headers: bearer(credential) })).statusCode
}

function expectProblem(res: { statusCode: number; json(): unknown }, status: number, code: string) {
  expect(res.statusCode).toBe(status)
  expect(res.json()).toMatchObject({ code })
}

const revokeKey = (org: TestMember, id: string) =>
  t.app.inject({ method: 'DELETE', url: `${keysUrl(org)}/${id}`, headers: org.headers })
const revokeToken = (org: TestMember, jti: string) =>
  t.app.inject({ method: 'DELETE', url: `${tokensUrl(org)}/${jti}`, headers: org.headers })

describe('scopes: a credential creates only credentials with scopes it has', () => {
  it('refuses a key with only the admin scope creating a read,write,admin key, naming what it lacks', async () => {
    const owner = await signedInMember(t, 'Narrow Scopes Firm')
    const adminOnly = await keyBy(owner, owner.headers, { scopes: 'admin' })
    const before = await t.database.db.$count(apiKeys, eq(apiKeys.orgId, owner.orgId))
    const res = await askKey(owner, bearer(adminOnly.key), { scopes: 'read,write,admin' })
    expectProblem(res, 403, 'insufficient_scope')
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect((res.json() as { detail: string }).detail).toBe(
      'A credential can only create credentials with scopes it has; this one lacks read, write',
    )
    expect(await t.database.db.$count(apiKeys, eq(apiKeys.orgId, owner.orgId))).toBe(before)
    const narrower = await keyBy(owner, bearer(adminOnly.key), { scopes: 'admin' })
    expect(narrower.scopes).toEqual(['admin'])
  })

  it('refuses a token with only the admin scope minting a read,write token', async () => {
    const owner = await signedInMember(t, 'Narrow Token Scopes Firm')
    const { token } = await tokenBy(owner, owner.headers, { scope: 'admin', ttl_seconds: 600 })
    expectProblem(
      await askToken(owner, bearer(token), { scope: 'read,write' }),
      403,
      'insufficient_scope',
    )
    expectProblem(
      await askKey(owner, bearer(token), { scopes: 'read,write' }),
      403,
      'insufficient_scope',
    )
  })
})

describe('lifetimes: a credential creates nothing that outlives it', () => {
  it('gives a key made with a 60-second token that token’s expiry, and refuses one asked to outlive it', async () => {
    const owner = await signedInMember(t, 'Short Token Firm')
    const short = await tokenBy(owner, owner.headers, { scope: 'read admin', ttl_seconds: 60 })
    const key = await keyBy(owner, bearer(short.token), { scopes: 'read,admin' })
    expect(key.expiresAt).toBe(new Date(short.claims.exp * 1000).toISOString())
    const later = await askKey(owner, bearer(short.token), {
      scopes: 'read',
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    })
    expectProblem(later, 403, 'credential_outlives_parent')
    expect((later.json() as { detail: string }).detail).toContain(
      'A credential cannot outlive the one creating it',
    )
  })

  it('caps a token minted by a short token at the first one’s expiry, refusing 24 hours', async () => {
    const owner = await signedInMember(t, 'Short Minter Firm')
    const short = await tokenBy(owner, owner.headers, { scope: 'read admin', ttl_seconds: 60 })
    expectProblem(
      await askToken(owner, bearer(short.token), { scope: 'read', ttl_seconds: 86_400 }),
      403,
      'credential_outlives_parent',
    )
    const second = await tokenBy(owner, bearer(short.token), { scope: 'read' })
    expect(second.claims.exp).toBeLessThanOrEqual(short.claims.exp)
    const [row] = await t.database.db
      .select()
      .from(tenantTokens)
      .where(eq(tenantTokens.jti, second.claims.jti))
    expect(row?.expiresAt.getTime()).toBe(second.claims.exp * 1000)
    expect(row?.lineage).toEqual([`token:${short.claims.jti}`])
  })

  it('caps a token minted by an expiring key at the key’s expiry', async () => {
    const owner = await signedInMember(t, 'Expiring Key Firm')
    const ends = new Date(Date.now() + 120_000)
    const key = await keyBy(owner, owner.headers, {
      scopes: 'read,admin',
      expiresAt: ends.toISOString(),
    })
    const { claims } = await tokenBy(owner, bearer(key.key), { scope: 'read' })
    expect(claims.exp * 1000).toBeLessThanOrEqual(ends.getTime())
    expect(claims.exp * 1000).toBeGreaterThan(ends.getTime() - 1000)
  })
})

describe('revocation: a credential dies with the credentials it was made with', () => {
  it('refuses a key made with a token once the token is revoked, and lists it as revoked', async () => {
    const owner = await signedInMember(t, 'Token Parent Firm')
    const parent = await tokenBy(owner, owner.headers, { scope: 'read admin' })
    const child = await keyBy(owner, bearer(parent.token), { scopes: 'read' })
    expect(await readStatus(owner, child.key)).toBe(200) // its key and lineage cached as valid
    expect((await revokeToken(owner, parent.claims.jti)).statusCode).toBe(204)
    expect(await readStatus(owner, child.key)).toBe(401)
    const list = await t.app.inject({ url: keysUrl(owner), headers: owner.headers })
    const listed = (list.json() as { items: Omit<CreatedApiKey, 'key'>[] }).items.find(
      (k) => k.id === child.id,
    )
    expect(listed?.revokedAt).not.toBeNull()
  })

  it('refuses a token minted with a key once the key is revoked, at once', async () => {
    const owner = await signedInMember(t, 'Key Parent Firm')
    const parent = await keyBy(owner, owner.headers, { scopes: 'read,admin' })
    const child = await tokenBy(owner, bearer(parent.key), { scope: 'read', ttl_seconds: 86_400 })
    expect(await readStatus(owner, child.token)).toBe(200)
    expect((await revokeKey(owner, parent.id)).statusCode).toBe(204)
    expect(await readStatus(owner, child.token)).toBe(401)
  })

  it('refuses a token minted by a short token after the first one’s revocation', async () => {
    const owner = await signedInMember(t, 'Token Chain Firm')
    const first = await tokenBy(owner, owner.headers, { scope: 'read admin', ttl_seconds: 600 })
    const second = await tokenBy(owner, bearer(first.token), { scope: 'read admin' })
    const third = await keyBy(owner, bearer(second.token), { scopes: 'read' })
    expect(await readStatus(owner, second.token)).toBe(200)
    expect(await readStatus(owner, third.key)).toBe(200)
    expect((await revokeToken(owner, first.claims.jti)).statusCode).toBe(204)
    expect(await readStatus(owner, second.token)).toBe(401)
    expect(await readStatus(owner, third.key)).toBe(401) // a grandchild too
  })

  it('refuses a child of a revoked parent at the request, even where no cascade revoked it', async () => {
    const owner = await signedInMember(t, 'No Cascade Firm')
    // Revoked in the table alone, as a revocation racing the child's creation would leave it,
    // before this process has checked the child's lineage (another process's caches hold it).
    const revokeInTable = (id: string) =>
      t.database.db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, id))
    const parent = await keyBy(owner, owner.headers, { scopes: 'read,admin' })
    const child = await tokenBy(owner, bearer(parent.key), { scope: 'read' })
    await revokeInTable(parent.id)
    expect(await readStatus(owner, child.token)).toBe(401)
    const [row] = await t.database.db
      .select({ revokedAt: tenantTokens.revokedAt })
      .from(tenantTokens)
      .where(eq(tenantTokens.jti, child.claims.jti))
    expect(row?.revokedAt).toBeNull()

    const root = await tokenBy(owner, owner.headers, { scope: 'read admin' })
    const middle = await keyBy(owner, bearer(root.token), { scopes: 'read,admin' })
    const grandchild = await tokenBy(owner, bearer(middle.key), { scope: 'read' })
    await revokeInTable(middle.id)
    expect(await readStatus(owner, grandchild.token)).toBe(401)
  })

  it('refuses to create anything with a credential of a revoked lineage', async () => {
    const owner = await signedInMember(t, 'Dead Lineage Firm')
    const parent = await keyBy(owner, owner.headers, { scopes: 'read,admin' })
    const child = await tokenBy(owner, bearer(parent.key), { scope: 'read admin' })
    expect((await revokeKey(owner, parent.id)).statusCode).toBe(204)
    const res = await askKey(owner, bearer(child.token), { scopes: 'read' })
    expect(res.statusCode).toBe(401)
    expect(res.headers['www-authenticate']).toBe('Bearer error="invalid_token"')
  })
})

describe('depth: a lineage is at most eight credentials long', () => {
  it('refuses a ninth generation with a problem that says to sign in', async () => {
    const owner = await signedInMember(t, 'Deep Lineage Firm')
    let headers: Record<string, string> = owner.headers
    for (let generation = 1; generation <= 9; generation++) {
      headers = bearer((await tokenBy(owner, headers, { scope: 'read admin' })).token)
    }
    const res = await askToken(owner, headers, { scope: 'read' })
    expectProblem(res, 403, 'forbidden')
    expect((res.json() as { detail: string }).detail).toContain('at most 8 deep')
  })
})

describe('apps: a credential bound to an app creates credentials bound to it', () => {
  it('binds a key and a token made by an app-bound token to its app, and refuses another app', async () => {
    const owner = await signedInMember(t, 'App Bound Firm')
    const [mine, other] = [await appOf(t, owner, 'mine'), await appOf(t, owner, 'other')]
    const bound = await tokenBy(owner, owner.headers, { scope: 'read admin', app_id: mine })
    expect((await keyBy(owner, bearer(bound.token), { scopes: 'read' })).appId).toBe(mine)
    expect((await tokenBy(owner, bearer(bound.token), { scope: 'read' })).claims.app_id).toBe(mine)
    expectProblem(
      await askKey(owner, bearer(bound.token), { scopes: 'read', appId: other }),
      404,
      'app_not_found',
    )
    expectProblem(
      await askToken(owner, bearer(bound.token), { scope: 'read', app_id: other }),
      404,
      'app_not_found',
    )
  })
})

describe('membership: a creator’s removal or demotion reaches their keys at once', () => {
  it('refuses a removed admin’s API key at once, though it was used a moment before', async () => {
    const owner = await signedInMember(t, 'Removed Admin Firm')
    const admin = await signedInWithRole(t, owner.orgId, 'admin')
    const key = await keyBy(owner, admin.headers, { scopes: 'read,admin' })
    expect(await readStatus(owner, key.key)).toBe(200) // cached now
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/orgs/${owner.orgId}/members/${await membershipIdOf(t, admin, owner.orgId)}`,
      headers: owner.headers,
    })
    expect(removed.statusCode, removed.body).toBe(204)
    expect(await readStatus(owner, key.key)).toBe(401)
  })

  it('takes admin routes from a demoted admin’s API key at once, though it was used a moment before', async () => {
    const owner = await signedInMember(t, 'Demoted Admin Firm')
    const admin = await signedInWithRole(t, owner.orgId, 'admin')
    const key = await keyBy(owner, admin.headers, { scopes: 'read,admin' })
    const before = await t.app.inject({ url: keysUrl(owner), headers: bearer(key.key) })
    expect(before.statusCode).toBe(200)
    const demoted = await setMemberRole(t, owner, admin, 'member')
    expect(demoted.statusCode, demoted.body).toBe(204)
    const after = await t.app.inject({ url: keysUrl(owner), headers: bearer(key.key) })
    expectProblem(after, 403, 'forbidden')
  })
})
