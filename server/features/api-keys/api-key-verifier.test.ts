/**
 * The API-key verifier on its own, with a clock: the cache, its forgetting on revocation, expiry
 * on every request, `last_used_at` written at most once a minute, and the two checks it makes
 * through caches other processes' revocations empty: the creator's role (the principal cache) and
 * the key's lineage (decision 0104).
 */
import { and, eq } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { createLineageCheck, type LineageCheck } from '../../auth/lineage-check'
import { createPrincipalCache, type PrincipalCache } from '../../auth/principal-cache'
import { apiKeys, member } from '../../db/schema'
import { buildTestApp, signedInMember, type TestMember } from '../../test/test-app'
import { createApiKeyVerifier, type ApiKeyVerifierOptions } from './api-key-verifier'
import { newApiKey } from './api-key-secret'

const t = await buildTestApp()
afterAll(() => t.close())
const db = t.database.db

/** A verifier with caches of its own (an hour long unless `options` say otherwise). */
function verifierOf(
  options: ApiKeyVerifierOptions = {},
  caches: { principals?: PrincipalCache; lineage?: LineageCheck } = {},
) {
  return createApiKeyVerifier(
    {
      db,
      principals: caches.principals ?? createPrincipalCache({ ttlMs: 3_600_000 }),
      lineage: caches.lineage ?? createLineageCheck(db, { ttlMs: 3_600_000 }),
    },
    options,
  )
}

/** A key of `owner` (default: a new organisation's owner), written straight into the table. */
async function storedKey(
  expiresAt: Date | null = null,
  facts: { owner?: TestMember; lineage?: string[] } = {},
) {
  const owner = facts.owner ?? (await signedInMember(t, 'Verifier Firm'))
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
      lineage: facts.lineage ?? [],
    })
    .returning()
  return { key, hash, id: row!.id, owner }
}

const lastUsed = async (id: string) =>
  (await db.select().from(apiKeys).where(eq(apiKeys.id, id)))[0]?.lastUsedAt?.getTime() ?? null

describe('API-key verifier', () => {
  it('answers the key’s facts, its creator’s role and only known scopes', async () => {
    const { key, id, owner } = await storedKey()
    const keys = verifierOf()
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
    const keys = verifierOf({ now: () => now, ttlMs: 3_600_000 })
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
    const keys = verifierOf({ ttlMs: 3_600_000 })
    expect(await keys.verifier.verify(key)).not.toBeNull()
    await db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, id))
    expect(await keys.verifier.verify(key)).not.toBeNull() // cached: no query
    keys.forget(hash)
    expect(await keys.verifier.verify(key)).toBeNull()
  })

  it('refuses a cached key once its expiry has passed', async () => {
    let now = Date.now()
    const { key } = await storedKey(new Date(now + 5_000))
    const keys = verifierOf({ now: () => now, ttlMs: 3_600_000 })
    expect(await keys.verifier.verify(key)).not.toBeNull()
    now += 5_000
    expect(await keys.verifier.verify(key)).toBeNull()
  })

  it('refuses a removed creator’s cached key once the principal cache is emptied, as the revocation relay empties it on every process', async () => {
    const { key, owner } = await storedKey()
    const principals = createPrincipalCache({ ttlMs: 3_600_000 })
    const keys = verifierOf({ ttlMs: 3_600_000 }, { principals })
    expect(await keys.verifier.verify(key)).toMatchObject({ role: 'owner' })
    // Removed on another process: this one has heard nothing yet, and its caches still hold.
    await db
      .delete(member)
      .where(and(eq(member.organizationId, owner.orgId), eq(member.userId, owner.userId)))
    expect(await keys.verifier.verify(key)).not.toBeNull()
    principals.forgetAll() // what the relay's 'principals' announcement does here
    expect(await keys.verifier.verify(key)).toBeNull()
  })

  it('refuses a cached key once a credential of its lineage is revoked and the lineage check forgets', async () => {
    const parent = await storedKey()
    const child = await storedKey(null, {
      owner: parent.owner,
      lineage: [`api_key:${parent.id}`],
    })
    const lineage = createLineageCheck(db, { ttlMs: 3_600_000 })
    const keys = verifierOf({ ttlMs: 3_600_000 }, { lineage })
    expect(await keys.verifier.verify(child.key)).not.toBeNull()
    await db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, parent.id))
    lineage.forgetAll() // what any revocation does, this process's or one the relay heard of
    expect(await keys.verifier.verify(child.key)).toBeNull()
  })

  it('refuses a key whose lineage names a credential that does not exist', async () => {
    const { key } = await storedKey(null, { lineage: [`token:${crypto.randomUUID()}`] })
    expect(await verifierOf().verifier.verify(key)).toBeNull()
  })
})
