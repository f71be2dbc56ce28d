/**
 * The one 429 answer of every rate limit (the API's per-principal budgets, a route's own
 * `config.rateLimit`, the sign-in and demo limits): an RFC 9457 problem with code `rate_limited`
 * and a Retry-After header in whole seconds (RFC 9110 §10.2.3), built here and nowhere else.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { AppError } from '../errors/app-error'

/** A limiter as `app.createRateLimit(options)` of @fastify/rate-limit returns it. */
export type RateLimiter = ReturnType<FastifyInstance['createRateLimit']>

/**
 * The 429 problem: `detail(seconds)` tells the user when to come back; `seconds` (at least 1,
 * as Retry-After 0 would invite an immediate retry) is also sent as Retry-After.
 */
export function rateLimited(seconds: number, detail: (seconds: number) => string): AppError {
  const wait = Math.max(1, Math.ceil(seconds))
  return new AppError('rate_limited', detail(wait), { 'retry-after': String(wait) })
}

/**
 * Counts `req` against `limiter` and throws the 429 problem (rateLimited) when it goes over.
 * A request refused this way still counts, so hammering a closed limit does not reopen it sooner.
 */
export function enforceRateLimit(
  limiter: RateLimiter,
  req: FastifyRequest,
  detail: (seconds: number) => string,
): Promise<void> {
  return limiter(req).then((result) => {
    if (!result.isAllowed && result.isExceeded) throw rateLimited(result.ttlInSeconds, detail)
  })
}
