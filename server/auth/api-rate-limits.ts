/**
 * Rate limits of the tenant API (`/api/v1`), on @fastify/rate-limit, keyed by principal:
 * - every principal has a budget of reads and one of writes per minute, shared by all the routes
 *   of that scope (`config.scope`, scopes.ts), so one user's burst cannot crowd out the others
 *   (issue 29 measured 1,000 requests of one user stalling /readyz for 2 s); the route guard
 *   (route-roles.ts) charges it once the principal is known;
 * - a route may add a cap of its own with the plugin's route option `config.rateLimit`
 *   (`{ max, timeWindow }`), which the plugin checks after the guard, keyed the same way.
 * Both answer the one 429 problem of http/rate-limited.ts. The counters live in the plugin's
 * store: in memory on embedded PGlite (one process), in the database on PostgreSQL, where
 * several processes share them (http/database-rate-limit-store.ts, decision 0064).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { RateLimitPluginOptions } from '@fastify/rate-limit'
import { enforceRateLimit, rateLimited, type RateLimiter } from '../http/rate-limited'
import type { MethodScope } from './scopes'
import { DEFAULT_API_RATE_LIMITS, type ApiRateLimits } from '../config'

const MINUTE_MS = 60_000

/**
 * Whose budget `req` draws on: its credential, else its user (a session; so signing in again
 * does not reset it), else its client address (a request no principal was resolved for).
 */
export function rateLimitKey(req: FastifyRequest): string {
  const principal = req.principal
  if (principal?.credentialId) return `credential:${principal.credentialId}`
  if (principal?.userId) return `user:${principal.userId}`
  if (principal) return `org:${principal.orgId}:${principal.actorType}`
  return `ip:${req.ip}`
}

/** The user's message of a 429 of the API. */
const tooMany = (seconds: number) =>
  `Too many requests: try again in ${seconds} second${seconds === 1 ? '' : 's'}.`

/**
 * The plugin's options: no global limit (each limit is declared), requests counted per
 * rateLimitKey in `store` (absent: the plugin's in-memory store), and the 429 problem for
 * routes' own `config.rateLimit`.
 */
export function rateLimitPluginOptions(
  store?: RateLimitPluginOptions['store'],
): RateLimitPluginOptions {
  return {
    ...(store ? { store } : {}),
    global: false,
    keyGenerator: rateLimitKey,
    errorResponseBuilder: (_req, context) => rateLimited(context.ttl / 1000, tooMany),
  }
}

/**
 * The per-principal budgets on `api` (created once, shared by every route): returns the check
 * the route guard runs with whether the route reads or writes, which throws the 429 problem
 * when over: first an API key's own budget, then the principal's budget of that kind.
 */
export function scopeBudgets(
  api: FastifyInstance,
  limits: ApiRateLimits,
): (req: FastifyRequest, scope: MethodScope) => Promise<void> {
  const limiter = (name: string, max: number): RateLimiter =>
    api.createRateLimit({
      max,
      timeWindow: MINUTE_MS,
      keyGenerator: (req) => `${name}:${rateLimitKey(req)}`,
    })
  const limiters: Record<MethodScope, RateLimiter> = {
    read: limiter('read', limits.readsPerMinute),
    write: limiter('write', limits.writesPerMinute),
  }
  const perKey = limiter(
    'key',
    limits.keyRequestsPerMinute ?? DEFAULT_API_RATE_LIMITS.keyRequestsPerMinute,
  )
  // Not async: a session's request awaits its one count, not a wrapper around it too.
  return (req, scope) =>
    req.principal?.actorType === 'api_key'
      ? enforceRateLimit(perKey, req, tooMany).then(() =>
          enforceRateLimit(limiters[scope], req, tooMany),
        )
      : enforceRateLimit(limiters[scope], req, tooMany)
}
