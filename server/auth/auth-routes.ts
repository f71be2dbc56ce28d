/**
 * Mounts better-auth under /api/auth (Fetch API handler bridged to Fastify) and puts strict rate
 * limits on the sign-in routes: sending a link (per e-mail address and per client), opening one
 * (its confirmation page, per client) and confirming it (per client, magic-link-routes.ts). A
 * limited caller gets a 429 problem with Retry-After.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import { AppError } from '../errors/app-error'
import { createMethodIndex } from '../http/route-methods'
import { problem } from '../http/problem'
import { enforceRateLimit } from '../http/rate-limited'
import { DISABLED_AUTH_PATHS, type Auth } from './auth'
import { authProblem } from './auth-problems'
import { magicLinkRoutes } from './magic-link-routes'
import { toFetchRequest } from './to-fetch-request'
import type { Db } from '../db/client'
import { refuseWhenSsoRequired, ssoRequiredFor } from './sso'

/** Requests allowed per window on the sign-in routes. */
export interface SignInLimits {
  /** Window length in milliseconds (default 15 minutes). */
  windowMs: number
  /** Links sent to one e-mail address per window. */
  perEmail: number
  /** Link requests and verifications from one client (IP address) per window. */
  perClient: number
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = {
  windowMs: 15 * 60_000,
  perEmail: 5,
  perClient: 30,
}

function emailOf(req: FastifyRequest): string {
  const body = req.body as { email?: unknown } | undefined
  return typeof body?.email === 'string' ? body.email.trim().toLowerCase() : ''
}

/** Longest e-mail address SMTP carries: 254 characters (RFC 5321 §4.5.3.1.3, errata 1690). */
export const MAX_EMAIL_LENGTH = 254

/** Rejects (400 problem) an e-mail address longer than MAX_EMAIL_LENGTH before anything else. */
async function emailWithinLimit(req: FastifyRequest) {
  const email = (req.body as { email?: unknown } | undefined)?.email
  if (typeof email === 'string' && email.length > MAX_EMAIL_LENGTH) {
    throw new AppError(
      'email_too_long',
      `An e-mail address has at most ${MAX_EMAIL_LENGTH} characters.`,
    )
  }
}

/** Whether `value` (JSON-like, up to 10 levels deep) holds a string with a NUL character. */
function holdsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000')
  if (depth > 10 || typeof value !== 'object' || value === null) return false
  return Object.values(value).some((v) => holdsNul(v, depth + 1))
}

/**
 * Rejects (400 problem) a NUL character anywhere in the query or JSON body: PostgreSQL text
 * cannot hold one, so better-auth's lookup would fail with a 500.
 */
async function refuseNulCharacters(req: FastifyRequest) {
  if (holdsNul(req.query) || holdsNul(req.body)) {
    throw new AppError('nul_character', 'Text may not contain NUL characters.')
  }
}

/** Methods better-auth serves on each of its paths (under /api/auth), disabled paths left out. */
function authEndpointMethods(auth: Auth) {
  const index = createMethodIndex()
  for (const endpoint of Object.values(auth.api) as {
    path?: string
    options?: { method?: string | string[] }
  }[]) {
    const { path, options } = endpoint
    if (!path || !options?.method || DISABLED_AUTH_PATHS.includes(path)) continue
    index.add(options.method, `/api/auth${path}`)
  }
  return index
}

/** Callback parameters better-auth redirects to after a link is followed. */
const CALLBACK_FIELDS = ['callbackURL', 'newUserCallbackURL', 'errorCallbackURL'] as const

/** Whether `value` is a path on this app or an absolute URL on `origin` (not `//host`). */
export function isSameOriginCallback(value: string, origin: string): boolean {
  if (value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\')) return true
  try {
    return new URL(value).origin === new URL(origin).origin
  } catch {
    return false
  }
}

/** Rejects (400 problem) callback URLs in the body or query that leave the app's origin. */
function sameOriginCallbacks(origin: string) {
  return async (req: FastifyRequest) => {
    const sources = [req.body, req.query] as (Record<string, unknown> | undefined)[]
    for (const source of sources) {
      for (const field of CALLBACK_FIELDS) {
        const value = source?.[field]
        if (
          value !== undefined &&
          (typeof value !== 'string' || !isSameOriginCallback(value, origin))
        ) {
          throw new AppError('bad_callback_url', `${field} must be a path on this site`)
        }
      }
    }
  }
}

export const authRoutes: FastifyPluginAsync<{
  auth: Auth
  /** Reads which domains require single sign-on (sso.ts). */
  db: Db
  origin: string
  limits: SignInLimits
}> = async (app, { auth, db, origin, limits }) => {
  // Two independent counters per request (the plugin's own preHandler runs only one per request).
  const limiters = {
    client: app.createRateLimit({
      max: limits.perClient,
      timeWindow: limits.windowMs,
      keyGenerator: (req) => `client:${req.ip}`,
    }),
    // Opening a link (its confirmation page) counts apart, so that a sign-in still costs two
    // of the client's requests (asking for the link, confirming it).
    linkPage: app.createRateLimit({
      max: limits.perClient,
      timeWindow: limits.windowMs,
      keyGenerator: (req) => `link-page:${req.ip}`,
    }),
    email: app.createRateLimit({
      max: limits.perEmail,
      timeWindow: limits.windowMs,
      keyGenerator: (req) => `email:${emailOf(req)}`,
    }),
  }
  const limit =
    (...kinds: (keyof typeof limiters)[]) =>
    async (req: FastifyRequest) => {
      for (const kind of kinds) {
        await enforceRateLimit(
          limiters[kind],
          req,
          (seconds) => `Too many sign-in attempts. Try again in ${seconds} seconds.`,
        )
      }
    }

  const endpointMethods = authEndpointMethods(auth)
  const relay = async (req: FastifyRequest, reply: FastifyReply, request: Request) => {
    const path = req.url.split('?')[0] ?? ''
    let response: Response
    try {
      response = await auth.handler(request)
    } catch (error) {
      // An AppError of one of our hooks (the organisation limit, organisation-limit.ts) reaches
      // here through better-auth (onAPIError.throw): answered like better-auth's own refusals,
      // with `message`, which its web client shows; anything else is the error handler's 500.
      if (!(error instanceof AppError)) throw error
      const body = { ...problem(error.status, error.detail, error.code), message: error.detail }
      return reply
        .status(error.status)
        .headers(error.headers)
        .type('application/problem+json')
        .send(JSON.stringify({ ...body, instance: path }))
    }
    const text = await response.text()
    const cookies = response.headers.getSetCookie()
    if (cookies.length > 0) reply.header('set-cookie', cookies)
    if (response.status >= 400) {
      const { body, headers } = authProblem(response.status, text, path, endpointMethods.allowed)
      return reply
        .status(body.status)
        .headers(headers)
        .type('application/problem+json')
        .send(JSON.stringify({ ...body, instance: path }))
    }
    reply.status(response.status)
    response.headers.forEach((value, key) => {
      if (key !== 'set-cookie') reply.header(key, value)
    })
    return reply.send(text.length > 0 ? text : null)
  }
  const forward = (req: FastifyRequest, reply: FastifyReply) =>
    relay(req, reply, toFetchRequest(req, origin))

  app.post(
    '/api/auth/sign-in/magic-link',
    {
      preHandler: [
        refuseNulCharacters,
        emailWithinLimit,
        limit('client', 'email'),
        sameOriginCallbacks(origin),
        // A domain that requires single sign-on gets no e-mail link (403 sso_required).
        async (req) => {
          const email = emailOf(req)
          if (email !== '') await refuseWhenSsoRequired(db, email)
        },
      ],
      schema: { hide: true },
    },
    forward,
  )
  // Starting an SSO sign-in: limited per client, its callbacks on this site only.
  app.post(
    '/api/auth/sign-in/sso',
    {
      preHandler: [
        refuseNulCharacters,
        emailWithinLimit,
        limit('client'),
        sameOriginCallbacks(origin),
      ],
      schema: { hide: true },
    },
    forward,
  )
  await app.register(magicLinkRoutes, {
    auth,
    origin,
    pageGuards: [refuseNulCharacters, limit('linkPage'), sameOriginCallbacks(origin)],
    confirmGuards: [refuseNulCharacters, limit('client'), sameOriginCallbacks(origin)],
    relay,
    ssoRequired: async (email) => (await ssoRequiredFor(db, email)) !== undefined,
  })
  app.route({
    method: ['GET', 'POST'],
    url: '/api/auth/*',
    preHandler: refuseNulCharacters,
    schema: { hide: true },
    handler: forward,
  })
}
