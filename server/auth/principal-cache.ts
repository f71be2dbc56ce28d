/**
 * A short-lived, in-process cache of the two lookups behind every organisation request: which
 * user a session cookie belongs to (better-auth's getSession: cookie signature, session and user
 * rows) and which role that user holds in an organisation (`member` row; also read for the
 * creator of an API key or tenant token, so a membership change reaches their credentials too). Entries live at most
 * `ttlMs` (default 10 s) and never past the session's expiry; only positive answers are kept.
 *
 * Revocation: every request that can end a session or change a membership (any non-GET request
 * under `/api/auth/`: sign-out, revoke-session(s), delete-user, organisation member changes, …,
 * and `GET /api/auth/delete-user/callback`) empties the cache when it arrives and again when it
 * has been answered, and a lookup that overlapped such a request is not stored, so a signed-out
 * cookie or a removed member is refused at once by this process. Another server process sharing
 * the database learns of it through `onRevoke` (the revocation relay, decision 0064), else
 * within `ttlMs` (decision record 0007). Concurrent misses for the
 * same key share one lookup, so an entry expiring under load costs one lookup, not one per
 * waiting request.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { LRUCache, type Perf } from 'lru-cache'
import type { Role } from '../db/roles'

/** A session as the cache needs it: its owner, its token and when it ends. */
export interface SessionFacts {
  userId: string
  /** The unsigned session token; the cookie value is `${token}.${signature}`. */
  token: string
  expiresAt: Date
}

export interface PrincipalCacheOptions {
  /** Longest time an answer is reused, in ms (default 10,000). */
  ttlMs?: number
  /** Entries kept per kind, least recently used dropped first (default 10,000). */
  maxEntries?: number
  /** Clock for tests (lru-cache's `perf`); `now()` in ms. */
  clock?: Perf
  /** Called by every revokeAll (not forgetAll): tells other processes (revocation-relay.ts). */
  onRevoke?: () => void
}

export interface PrincipalCache {
  /**
   * The user id of the session in `cookie` (the session cookie's value, or null when absent),
   * from the cache or from `lookup` (which returns null for no valid session).
   */
  userIdFor(
    cookie: string | null,
    lookup: () => Promise<SessionFacts | null>,
  ): Promise<string | null>
  /** The role of `userId` in `orgId`, from the cache or from `lookup` (null: not a member). */
  roleFor(userId: string, orgId: string, lookup: () => Promise<Role | null>): Promise<Role | null>
  /**
   * The cached user id of the session in `cookie`, without a lookup (undefined when none is
   * cached): lets a request whose session and role are both cached resolve without an await.
   */
  cachedUserId(cookie: string | null): string | undefined
  /** The cached role of `userId` in `orgId`, without a lookup (undefined when none is cached). */
  cachedRole(userId: string, orgId: string): Role | undefined
  /** Forgets every entry and refuses to store lookups already under way; calls onRevoke. */
  revokeAll(): void
  /** Forgets as revokeAll does, without calling onRevoke (a revocation heard from elsewhere). */
  forgetAll(): void
}

/** Creates an empty cache. */
export function createPrincipalCache(options: PrincipalCacheOptions = {}): PrincipalCache {
  const ttl = options.ttlMs ?? 10_000
  const common = {
    max: options.maxEntries ?? 10_000,
    ttl,
    // Read the clock on every get (lru-cache otherwise reuses it for 1 ms via a timer).
    ttlResolution: 0,
    ...(options.clock ? { perf: options.clock } : {}),
  }
  const sessions = new LRUCache<string, string>(common)
  const roles = new LRUCache<string, Role>(common)
  // Bumped by every revocation; a lookup stores its answer only if none happened meanwhile.
  let generation = 0
  // Lookups under way, by key: concurrent misses for one session or membership share one lookup
  // (when an entry expires under load, every request holding that cookie misses at once).
  const inFlight = new Map<string, Promise<unknown>>()
  const shared = <T>(key: string, lookup: () => Promise<T>): Promise<T> => {
    const running = inFlight.get(key) as Promise<T> | undefined
    if (running) return running
    const started = lookup().finally(() => {
      if (inFlight.get(key) === started) inFlight.delete(key)
    })
    inFlight.set(key, started)
    return started
  }

  const forgetAll = () => {
    generation += 1
    sessions.clear()
    roles.clear()
    // Requests after a revocation start lookups of their own instead of joining older ones.
    inFlight.clear()
  }

  const cachedUserId = (cookie: string | null) => (cookie ? sessions.get(cookie) : undefined)
  const roleKey = (userId: string, orgId: string) => `${userId}\u0000${orgId}`

  return {
    cachedUserId,
    cachedRole: (userId, orgId) => roles.get(roleKey(userId, orgId)),
    async userIdFor(cookie, lookup) {
      const cached = cachedUserId(cookie)
      if (cached) return cached
      const find = async () => {
        const started = generation
        const session = await lookup()
        if (!session) return null
        if (cookie?.startsWith(`${session.token}.`) && started === generation) {
          const left = session.expiresAt.getTime() - Date.now()
          if (left > 0) sessions.set(cookie, session.userId, { ttl: Math.min(ttl, left) })
        }
        return session.userId
      }
      return cookie ? shared(`session\u0000${cookie}`, find) : find()
    },
    async roleFor(userId, orgId, lookup) {
      const key = roleKey(userId, orgId)
      const cached = roles.get(key)
      if (cached) return cached
      return shared(`role\u0000${key}`, async () => {
        const started = generation
        const role = await lookup()
        if (role && started === generation) roles.set(key, role)
        return role
      })
    },
    revokeAll() {
      forgetAll()
      options.onRevoke?.()
    },
    forgetAll,
  }
}

/** Whether `req` can end a session or change a membership (see the module comment). */
function canRevoke(req: FastifyRequest): boolean {
  if (!req.url.startsWith('/api/auth/')) return false
  if (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'OPTIONS') return true
  return req.url.startsWith('/api/auth/delete-user/callback')
}

/**
 * Creates the cache and hooks its revocation into `app`'s requests. Call it before the auth
 * routes are registered, so their requests run the hooks.
 */
export function registerPrincipalCache(
  app: FastifyInstance,
  options?: PrincipalCacheOptions,
): PrincipalCache {
  const cache = createPrincipalCache(options)
  const revokeIfAuthChange = (req: FastifyRequest, _reply: unknown, done: () => void) => {
    if (canRevoke(req)) cache.revokeAll()
    done()
  }
  app.addHook('onRequest', revokeIfAuthChange)
  app.addHook('onResponse', revokeIfAuthChange)
  return cache
}
