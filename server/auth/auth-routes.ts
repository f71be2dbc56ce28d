/**
 * Mounts better-auth under /api/auth (Fetch API handler bridged to Fastify) and puts strict rate
 * limits on the two sign-in routes: sending a link (per e-mail address and per client) and
 * verifying one (per client). A limited caller gets a 429 problem with Retry-After.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify'
import { AppError } from '../http/app-error'
import type { Auth } from './auth'

/** Requests allowed per window on the sign-in routes. */
export interface SignInLimits {
  /** Window length in milliseconds (default 15 minutes). */
  windowMs: number
  /** Links sent to one e-mail address per window. */
  perEmail: number
  /** Link requests and verifications from one client (IP address) per window. */
  perClient: number
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = { windowMs: 15 * 60_000, perEmail: 5, perClient: 30 }

function emailOf(req: FastifyRequest): string {
  const body = req.body as { email?: unknown } | undefined
  return typeof body?.email === 'string' ? body.email.trim().toLowerCase() : ''
}

/** Converts a Fastify request to a Fetch Request for better-auth. */
function toFetchRequest(req: FastifyRequest, origin: string): Request {
  const headers = new Headers()
  for (const [key, value] of Object.entries(req.headers)) {
    if (value === undefined) continue
    headers.set(key, Array.isArray(value) ? value.join(', ') : value)
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && req.body !== undefined
  return new Request(new URL(req.url, origin), {
    method: req.method,
    headers,
    body: hasBody ? JSON.stringify(req.body) : undefined,
  })
}

export const authRoutes: FastifyPluginAsync<{ auth: Auth; origin: string; limits: SignInLimits }> = async (
  app,
  { auth, origin, limits },
) => {
  const tooMany = (_req: FastifyRequest, ctx: { after: string }) =>
    new AppError('rate_limited', 429, `Too many sign-in attempts. Try again in ${ctx.after}.`)
  const perClient = app.rateLimit({
    max: limits.perClient,
    timeWindow: limits.windowMs,
    keyGenerator: (req) => `client:${req.ip}`,
    errorResponseBuilder: tooMany,
  })
  const perEmail = app.rateLimit({
    max: limits.perEmail,
    timeWindow: limits.windowMs,
    keyGenerator: (req) => `email:${emailOf(req)}`,
    errorResponseBuilder: tooMany,
  })

  const forward = async (req: FastifyRequest, reply: import('fastify').FastifyReply) => {
    const response = await auth.handler(toFetchRequest(req, origin))
    reply.status(response.status)
    response.headers.forEach((value, key) => {
      if (key !== 'set-cookie') reply.header(key, value)
    })
    const cookies = response.headers.getSetCookie()
    if (cookies.length > 0) reply.header('set-cookie', cookies)
    const text = await response.text()
    return reply.send(text.length > 0 ? text : null)
  }

  app.post('/api/auth/sign-in/magic-link', { preHandler: [perClient, perEmail], schema: { hide: true } }, forward)
  app.get('/api/auth/magic-link/verify', { preHandler: [perClient], schema: { hide: true } }, forward)
  app.route({ method: ['GET', 'POST'], url: '/api/auth/*', schema: { hide: true }, handler: forward })
}
