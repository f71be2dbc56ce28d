/**
 * The check, at every request, that the credentials an API key or tenant token was created with
 * (its `lineage`, child-credential.ts) are all still valid: none revoked, expired or deleted
 * (decision 0104). It is what makes a child die with its parent on every server process, whatever
 * the revocation's cascade (revokeDescendants) did or did not reach: a process's cached key or
 * token is re-checked against its lineage on each use.
 *
 * Answers are cached in process per organisation and lineage for `ttlMs` (default 10 s, as the
 * verifiers' are: decision 0007), so a busy credential costs no query; `forgetAll()` (called on
 * every credential revocation, this process's or one the revocation relay heard of) drops them
 * and keeps lookups already under way from storing theirs, so a child of a revoked credential is
 * refused at once. A lost notification leaves `ttlMs` as the bound.
 */
import { inArray } from 'drizzle-orm'
import { LRUCache } from 'lru-cache'
import type { Db } from '../db/client'
import { apiKeys, tenantTokens } from '../db/schema'
import { withTenant } from '../db/tenant'
import { parseCredentialRef } from './credential-ref'

export interface LineageCheck {
  /**
   * Whether every credential of `lineage` (references `api_key:<id>` / `token:<jti>`, as
   * stored) exists in organisation `orgId`, is not revoked and has not expired. An empty
   * lineage (a credential a signed-in person made) is always alive, without a lookup.
   */
  alive(orgId: string, lineage: readonly string[]): Promise<boolean>
  /** Forgets every answer (a credential was revoked somewhere: it may be anyone's ancestor). */
  forgetAll(): void
}

export interface LineageCheckOptions {
  /** Longest reuse of an answer, in ms (default 10,000). */
  ttlMs?: number
  /** Answers kept, least recently used dropped first (default 10,000). */
  maxEntries?: number
  /** Clock for tests: ms since the epoch (default Date.now). */
  now?: () => number
}

/** A lineage's state: dead, or alive until its earliest expiry (ms; null: none expires). */
type Known = { alive: false } | { alive: true; until: number | null }

/** Creates the check over the credentials of `db`. */
export function createLineageCheck(db: Db, options: LineageCheckOptions = {}): LineageCheck {
  const now = options.now ?? Date.now
  const cache = new LRUCache<string, Known>({
    max: options.maxEntries ?? 10_000,
    ttl: options.ttlMs ?? 10_000,
    ttlResolution: 0,
    perf: { now },
  })
  // Bumped by every forgetAll(); a lookup stores its answer only if none happened meanwhile.
  let generation = 0
  const inFlight = new Map<string, Promise<Known>>()

  const lookup = async (orgId: string, lineage: readonly string[]): Promise<Known> => {
    const refs = lineage.map(parseCredentialRef)
    if (refs.some((ref) => ref === null)) return { alive: false }
    const ids = (kind: string) => [
      ...new Set(refs.flatMap((ref) => (ref?.kind === kind ? [ref.id] : []))),
    ]
    const [keyIds, jtis] = [ids('api_key'), ids('token')]
    // As the organisation (RLS): a credential of another organisation is as good as missing.
    const rows = await withTenant(db, { orgId }, async (tx) => [
      ...(keyIds.length === 0
        ? []
        : await tx
            .select({ expiresAt: apiKeys.expiresAt, revokedAt: apiKeys.revokedAt })
            .from(apiKeys)
            .where(inArray(apiKeys.id, keyIds))),
      ...(jtis.length === 0
        ? []
        : await tx
            .select({ expiresAt: tenantTokens.expiresAt, revokedAt: tenantTokens.revokedAt })
            .from(tenantTokens)
            .where(inArray(tenantTokens.jti, jtis))),
    ])
    if (rows.length !== keyIds.length + jtis.length || rows.some((row) => row.revokedAt)) {
      return { alive: false }
    }
    const ends = rows.flatMap((row) => (row.expiresAt ? [row.expiresAt.getTime()] : []))
    return { alive: true, until: ends.length > 0 ? Math.min(...ends) : null }
  }

  const known = async (orgId: string, lineage: readonly string[]): Promise<Known> => {
    const key = `${orgId}\u0000${lineage.join(' ')}`
    const cached = cache.get(key)
    if (cached) return cached
    const running = inFlight.get(key)
    if (running) return running
    const started = generation
    const lookedUp = lookup(orgId, lineage).finally(() => {
      if (inFlight.get(key) === lookedUp) inFlight.delete(key)
    })
    inFlight.set(key, lookedUp)
    const answer = await lookedUp
    if (started === generation) cache.set(key, answer)
    return answer
  }

  return {
    async alive(orgId, lineage) {
      if (lineage.length === 0) return true
      const state = await known(orgId, lineage)
      return state.alive && (state.until === null || state.until > now())
    },
    forgetAll() {
      generation += 1
      cache.clear()
      inFlight.clear()
    },
  }
}
