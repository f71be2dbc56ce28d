import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { member } from '../db/schema'
import {
  buildTestApp,
  signedInMember,
  signedInWithRole,
  type TestApp,
  type TestMember,
} from '../test/test-app'
import { createPrincipalCache, type SessionFacts } from './principal-cache'

/** A clock the test moves by hand (ms). */
function manualClock() {
  let ms = 1_000_000 // lru-cache reads a start time of 0 as "no TTL"
  return { now: () => ms, advance: (by: number) => (ms += by) }
}

const inAnHour = () => new Date(Date.now() + 3_600_000)
const session = (token: string, expiresAt = inAnHour()): SessionFacts => ({
  userId: `user-of-${token}`,
  token,
  expiresAt,
})

describe('principal cache', () => {
  it('tells onRevoke of its own revocations, not of one heard from elsewhere', async () => {
    let told = 0
    const cache = createPrincipalCache({ onRevoke: () => (told += 1) })
    const session = { userId: 'u1', token: 'tok', expiresAt: new Date(Date.now() + 60_000) }
    await cache.userIdFor('tok.sig', async () => session)
    cache.forgetAll()
    expect(told).toBe(0)
    expect(await cache.userIdFor('tok.sig', async () => null)).toBeNull()
    cache.revokeAll()
    expect(told).toBe(1)
  })

  it('reuses a session answer until the TTL runs out, then asks again', async () => {
    const clock = manualClock()
    const cache = createPrincipalCache({ ttlMs: 1000, clock })
    let lookups = 0
    const lookup = async () => (lookups++, session('abc'))
    expect(await cache.userIdFor('abc.sig', lookup)).toBe('user-of-abc')
    clock.advance(999)
    expect(await cache.userIdFor('abc.sig', lookup)).toBe('user-of-abc')
    expect(lookups).toBe(1)
    clock.advance(2)
    expect(await cache.userIdFor('abc.sig', lookup)).toBe('user-of-abc')
    expect(lookups).toBe(2)
  })

  it('keeps a session no longer than it lasts', async () => {
    const clock = manualClock()
    const cache = createPrincipalCache({ ttlMs: 10_000, clock })
    let lookups = 0
    const endsSoon = new Date(Date.now() + 500)
    const lookup = async () => (lookups++, session('abc', endsSoon))
    await cache.userIdFor('abc.sig', lookup)
    clock.advance(600)
    await cache.userIdFor('abc.sig', lookup)
    expect(lookups).toBe(2)
  })

  it('stores nothing for a missing session or a cookie that is not the verified token', async () => {
    const cache = createPrincipalCache()
    let lookups = 0
    expect(await cache.userIdFor('abc.sig', async () => (lookups++, null))).toBeNull()
    expect(await cache.userIdFor('abc.sig', async () => (lookups++, null))).toBeNull()
    // better-auth verified another cookie than the one read as the key: not stored.
    await cache.userIdFor('evil.sig', async () => (lookups++, session('abc')))
    await cache.userIdFor('evil.sig', async () => (lookups++, session('abc')))
    expect(lookups).toBe(4)
  })

  it('does not store a lookup that overlapped a revocation', async () => {
    const cache = createPrincipalCache()
    let lookups = 0
    await cache.userIdFor('abc.sig', async () => {
      lookups++
      cache.revokeAll() // e.g. a sign-out answered while this lookup read the old row
      return session('abc')
    })
    await cache.userIdFor('abc.sig', async () => (lookups++, session('abc')))
    expect(lookups).toBe(2)
  })

  it('shares one lookup between concurrent misses of the same session or membership', async () => {
    const cache = createPrincipalCache()
    let sessionLookups = 0
    let roleLookups = 0
    const slowSession = async () => {
      sessionLookups++
      await new Promise((r) => setTimeout(r, 10))
      return session('abc')
    }
    const slowRole = async () => {
      roleLookups++
      await new Promise((r) => setTimeout(r, 10))
      return 'member' as const
    }
    const users = await Promise.all([1, 2, 3].map(() => cache.userIdFor('abc.sig', slowSession)))
    const roles = await Promise.all([1, 2, 3].map(() => cache.roleFor('u', 'org', slowRole)))
    expect(users).toEqual(['user-of-abc', 'user-of-abc', 'user-of-abc'])
    expect(roles).toEqual(['member', 'member', 'member'])
    expect([sessionLookups, roleLookups]).toEqual([1, 1])
  })

  it('does not let a request after a revocation join a lookup started before it', async () => {
    const cache = createPrincipalCache()
    let release!: () => void
    const before = cache.roleFor('u', 'org', async () => {
      await new Promise<void>((r) => (release = r))
      return 'admin' as const
    })
    cache.revokeAll() // e.g. the member was removed meanwhile
    const after = cache.roleFor('u', 'org', async () => null)
    release()
    expect(await before).toBe('admin')
    expect(await after).toBeNull()
  })

  it('caches memberships only, and forgets them on revocation', async () => {
    const cache = createPrincipalCache()
    let lookups = 0
    expect(await cache.roleFor('u', 'org', async () => (lookups++, null))).toBeNull()
    expect(await cache.roleFor('u', 'org', async () => (lookups++, 'admin'))).toBe('admin')
    expect(await cache.roleFor('u', 'org', async () => (lookups++, 'member'))).toBe('admin')
    expect(lookups).toBe(2)
    cache.revokeAll()
    expect(await cache.roleFor('u', 'org', async () => (lookups++, 'member'))).toBe('member')
  })
})

describe('principal cache in the app', () => {
  let t: TestApp
  let owner: TestMember
  beforeAll(async () => {
    t = await buildTestApp()
    owner = await signedInMember(t, 'Cache Firm')
  })
  afterAll(() => t.close())

  const documentsOf = (m: TestMember) =>
    t.app.inject({ url: `/api/v1/orgs/${m.orgId}/documents`, headers: m.headers })

  it('refuses a signed-out session at once', async () => {
    const user = await signedInWithRole(t, owner.orgId, 'member')
    expect((await documentsOf(user)).statusCode).toBe(200)
    expect((await documentsOf(user)).statusCode).toBe(200)
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: user.headers,
    })
    expect(out.statusCode).toBe(200)
    expect((await documentsOf(user)).statusCode).toBe(401)
  })

  it('refuses a removed member at once', async () => {
    const user = await signedInWithRole(t, owner.orgId, 'member')
    expect((await documentsOf(user)).statusCode).toBe(200)
    const [row] = await t.database.db
      .select({ id: member.id })
      .from(member)
      .where(and(eq(member.organizationId, owner.orgId), eq(member.userId, user.userId)))
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/orgs/${owner.orgId}/members/${row?.id}`,
      headers: owner.headers,
    })
    expect(removed.statusCode, removed.body).toBe(204)
    expect((await documentsOf(user)).statusCode).toBe(404)
  })

  it('applies a role change at once', async () => {
    const user = await signedInWithRole(t, owner.orgId, 'member')
    const createApp = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/orgs/${owner.orgId}/apps`,
        headers: user.headers,
        payload: { slug: `app-${Date.now()}` },
      })
    expect((await createApp()).statusCode).toBe(403)
    const [row] = await t.database.db
      .select({ id: member.id })
      .from(member)
      .where(and(eq(member.organizationId, owner.orgId), eq(member.userId, user.userId)))
    const promoted = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/orgs/${owner.orgId}/members/${row?.id}`,
      headers: owner.headers,
      payload: { role: 'admin' },
    })
    expect(promoted.statusCode, promoted.body).toBe(204)
    expect((await createApp()).statusCode).toBe(201)
  })
})
