/**
 * The API-key verifier on its own, with a clock: the cache, its forgetting on revocation, expiry
 * on every request, and `last_used_at` written at most once a minute.
 */
import { eq } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { apiKeys } from '../../db/schema'
import { buildTestApp, signedInMember } from '../../test/test-app'
import { createApiKeyVerifier } from './api-key-verifier'
import { newApiKey } from './api-key-secret'

const t = await buildTestApp()
afterAll(() => t.close())
const db = t.database.db

/** A key of a new organisation's owner, written straight into the table. */
async function storedKey(expiresAt: Date | null = null) {
  const owner = await signedInMember(t, 'Verifier Firm')
  const { key, prefix, hash } = newApiKey()
  const [row] = await db
    .insert(apiKeys)
    .values({
      orgId: owner.orgId,
      name: 'Test',
      prefix,
      keyHash: hash,
      scopes: ['read', 'unknown'],
      createdBy: owner.userId,
      expiresAt,
    })
    .returning()
  return { key, hash, id: row!.id, owner }
}

const lastUsed = async (id: string) =>
  (await db.select().from(apiKeys).where(eq(apiKeys.id, id)))[0]?.lastUsedAt?.getTime() ?? null

describe('API-key verifier', () => {
  it('answers the key’s facts, its creator’s role and only known scopes', async () => {
    const { key, id, owner } = await storedKey()
    const keys = createApiKeyVerifier(db)
    expect(await keys.verifier.verify(key)).toEqual({
      credentialId: id,
      orgId: owner.orgId,
      userId: owner.userId,
      role: 'owner',
      scopes: ['read'],
      appId: null,
      actorType: 'api_key',
      expiresAt: null,
    })
  })

  it('writes last_used_at at most once a minute', async () => {
    let now = Date.parse('2030-01-01T00:00:00Z')
    const { key, id } = await storedKey()
    const keys = createApiKeyVerifier(db, { now: () => now, ttlMs: 3_600_000 })
    await keys.verifier.verify(key)
    expect(await lastUsed(id)).toBe(now)
    const first = now
    now += 59_000
    await keys.verifier.verify(key)
    expect(await lastUsed(id)).toBe(first)
    now += 1_000
    await keys.verifier.verify(key)
    expect(await lastUsed(id)).toBe(now)
  })

  it('keeps a found key until forgotten, then reads it again', async () => {
    const { key, hash, id } = await storedKey()
    const keys = createApiKeyVerifier(db, { ttlMs: 3_600_000 })
    expect(await keys.verifier.verify(key)).not.toBeNull()
    await db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, id))
    expect(await keys.verifier.verify(key)).not.toBeNull() // cached: no query
    keys.forget(hash)
    expect(await keys.verifier.verify(key)).toBeNull()
  })

  it('refuses a cached key once its expiry has passed', async () => {
    let now = Date.now()
    const { key } = await storedKey(new Date(now + 5_000))
    const keys = createApiKeyVerifier(db, { now: () => now, ttlMs: 3_600_000 })
    expect(await keys.verifier.verify(key)).not.toBeNull()
    now += 5_000
    expect(await keys.verifier.verify(key)).toBeNull()
  })
})
