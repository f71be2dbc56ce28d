/**
 * The credential verifier of API keys (`Bearer ldk_…` or `x-api-key: ldk_…`, decision 0047),
 * registered by buildApp for every app. A key is found by the SHA-256 digest of what the request
 * presents (never by the key itself), as the NOLOGIN role `lexdesk_key_verifier`, which may read
 * keys and their creators' memberships and write a key's last use, nothing else (migration
 * keys-api-keys): the organisation is not known until the key is found.
 *
 * The key acts for its creator with the creator's current role in the organisation (so never
 * above it; a creator who left voids the key) and the key's scopes; route-roles.ts maps scopes to
 * routes. Answers are cached in process by digest for `ttlMs` (default 10 s, as sessions are,
 * decision 0007), so a busy key costs no query; `forget(digest)` (a revocation) drops the entry
 * at once and keeps lookups under way from storing theirs. Another process sharing the database
 * learns of a revocation or a role change within `ttlMs`. Expiry is checked on every request.
 * `last_used_at` is written at most once a minute per key, so a busy key does not write on every
 * request.
 */
import { timingSafeEqual } from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import { LRUCache } from 'lru-cache'
import type { CredentialVerifier, VerifiedCredential } from '../../auth/credential-registry'
import { SCOPES, type Scope } from '../../auth/scopes'
import type { Db } from '../../db/client'
import { toRole } from '../../db/roles'
import { apiKeys, member } from '../../db/schema'
import type { Tx } from '../../db/tenant'
import { API_KEY_PREFIX, hashApiKey } from './api-key-secret'

/** How often a key's `last_used_at` is written at most, in ms. */
const LAST_USED_EVERY_MS = 60_000

/** A found key: what it stands for, and the facts checked on each use. */
interface KnownKey {
  credential: VerifiedCredential
  /** When it expires (ms since the epoch), or null for never. */
  expiresAt: number | null
  /** When its last use was written (ms since the epoch), or null for never. */
  lastUsedAt: number | null
}

export interface ApiKeyVerifier {
  /** The verifier to register (buildApp's credential registry). */
  verifier: CredentialVerifier
  /** Forgets the key of digest `hash` (hashApiKey), as a revocation must, in this process. */
  forget(hash: string): void
}

export interface ApiKeyVerifierOptions {
  /** Longest time a found key is reused without reading it again, in ms (default 10,000). */
  ttlMs?: number
  /** Keys kept, least recently used dropped first (default 10,000). */
  maxEntries?: number
  /** Clock for tests: ms since the epoch (default Date.now). */
  now?: () => number
}

/** Runs `fn` in a transaction as the key verifier's role. */
function asKeyVerifier<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL ROLE lexdesk_key_verifier`)
    return fn(tx)
  })
}

/** Whether two hex digests are equal, compared in constant time. */
function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex')
  const right = Buffer.from(b, 'hex')
  return left.length === right.length && timingSafeEqual(left, right)
}

/** Creates the verifier of the keys in `db`. */
export function createApiKeyVerifier(db: Db, options: ApiKeyVerifierOptions = {}): ApiKeyVerifier {
  const now = options.now ?? Date.now
  const cache = new LRUCache<string, KnownKey>({
    max: options.maxEntries ?? 10_000,
    ttl: options.ttlMs ?? 10_000,
    ttlResolution: 0,
    perf: { now },
  })
  // Bumped by every forget(); a lookup stores its answer only if none happened meanwhile.
  let generation = 0
  const inFlight = new Map<string, Promise<KnownKey | null>>()

  const lookup = async (hash: string): Promise<KnownKey | null> => {
    const [row] = await asKeyVerifier(db, (tx) =>
      tx
        .select({
          id: apiKeys.id,
          orgId: apiKeys.orgId,
          appId: apiKeys.appId,
          keyHash: apiKeys.keyHash,
          scopes: apiKeys.scopes,
          createdBy: apiKeys.createdBy,
          lastUsedAt: apiKeys.lastUsedAt,
          expiresAt: apiKeys.expiresAt,
          revokedAt: apiKeys.revokedAt,
          role: member.role,
        })
        .from(apiKeys)
        .leftJoin(
          member,
          and(eq(member.organizationId, apiKeys.orgId), eq(member.userId, apiKeys.createdBy)),
        )
        .where(eq(apiKeys.keyHash, hash))
        .limit(1),
    )
    // The index found the row by digest; the digests are compared again in constant time, as
    // the registry asks of every verifier (decision 0047 says why the lookup itself is safe).
    if (!row || !sameDigest(row.keyHash, hash) || row.revokedAt || row.role === null) return null
    return {
      credential: {
        credentialId: row.id,
        orgId: row.orgId,
        userId: row.createdBy,
        role: toRole(row.role),
        scopes: row.scopes.filter((s): s is Scope => SCOPES.includes(s as Scope)),
        appId: row.appId,
        actorType: 'api_key',
        // A realtime socket opened with the key closes then (issue 41).
        expiresAt: row.expiresAt,
      },
      expiresAt: row.expiresAt?.getTime() ?? null,
      lastUsedAt: row.lastUsedAt?.getTime() ?? null,
    }
  }

  const found = async (hash: string): Promise<KnownKey | null> => {
    const cached = cache.get(hash)
    if (cached) return cached
    const running = inFlight.get(hash)
    if (running) return running
    const started = generation
    const lookedUp: Promise<KnownKey | null> = lookup(hash).finally(() => {
      if (inFlight.get(hash) === lookedUp) inFlight.delete(hash)
    })
    inFlight.set(hash, lookedUp)
    const known = await lookedUp
    if (known && started === generation) cache.set(hash, known)
    return known
  }

  /** Writes the key's last use if the one written is a minute old or more. */
  const touch = async (known: KnownKey, at: number): Promise<void> => {
    if (known.lastUsedAt !== null && at - known.lastUsedAt < LAST_USED_EVERY_MS) return
    known.lastUsedAt = at // before the write: concurrent requests do not write it again
    await asKeyVerifier(db, (tx) =>
      tx
        .update(apiKeys)
        .set({ lastUsedAt: new Date(at) })
        .where(eq(apiKeys.id, known.credential.credentialId)),
    )
  }

  return {
    verifier: {
      scheme: 'Bearer',
      prefix: API_KEY_PREFIX,
      async verify(token) {
        const known = await found(hashApiKey(token))
        const at = now()
        if (!known || (known.expiresAt !== null && known.expiresAt <= at)) return null
        await touch(known, at)
        return known.credential
      },
    },
    forget(hash) {
      generation += 1
      cache.delete(hash)
      inFlight.delete(hash)
    },
  }
}
