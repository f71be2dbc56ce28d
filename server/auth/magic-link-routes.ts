/**
 * The sign-in link's two steps (issue 29, point 9: login CSRF). Any page could send a browser to
 * an attacker's own link and so sign its owner in as the attacker; and a mail scanner that
 * prefetches links would spend them. So:
 * - GET /api/auth/magic-link/verify (the link) never signs in and never consumes the token: it
 *   answers the confirmation page (sign-in-confirmation-page.ts) naming the account, and warning
 *   when the browser is signed in as someone else; a spent or expired link goes to the error
 *   callback as better-auth's verify does (`?error=INVALID_TOKEN`).
 * - POST /api/auth/magic-link/verify (the page's button, a url-encoded form) is accepted only
 *   from Lexdesk's own pages (Origin or Referer on PUBLIC_URL, and Sec-Fetch-Site same-origin
 *   when sent), and then runs better-auth's verify, which consumes the token and redirects to
 *   the callback with the session cookie. If the browser is signed in as someone else and the
 *   page that posted did not show that user (its `signedInAs` field), the page is shown again.
 * A link for an address whose domain now requires single sign-on (sent before the firm turned it
 * on) goes, on both steps, to the error callback with `?error=SSO_REQUIRED`, unconsumed.
 */
import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { AppError } from '../errors/app-error'
import { comesFrom } from '../http/same-origin'
import type { Auth } from './auth'
import { pendingSignIn } from './pending-sign-in'
import { signInConfirmationPage, type SignInConfirmation } from './sign-in-confirmation-page'
import { toFetchRequest } from './to-fetch-request'

const VERIFY_PATH = '/api/auth/magic-link/verify'

/** A link's parameters (better-auth's verify query): its token is 32 characters. */
const LinkFields = z.object({
  token: z.string().min(1).max(256),
  callbackURL: z.string().max(2048).optional(),
  newUserCallbackURL: z.string().max(2048).optional(),
  errorCallbackURL: z.string().max(2048).optional(),
})

/** The confirmation form: the link's parameters and the user the page was shown to ('' none). */
const ConfirmationForm = LinkFields.extend({ signedInAs: z.string().max(256).optional() })

/** Largest confirmation form accepted: its fields are at most a few kilobytes. */
const FORM_BODY_LIMIT = 16 * 1024

export interface MagicLinkRouteOptions {
  auth: Auth
  origin: string
  /** Checks run before the page (rate limit, callback origins…), from auth-routes.ts. */
  pageGuards: preHandlerAsyncHookHandler[]
  /** Checks run before the confirmation. */
  confirmGuards: preHandlerAsyncHookHandler[]
  /** Sends better-auth's answer to `request` as the reply (auth-routes.ts). */
  relay: (req: FastifyRequest, reply: FastifyReply, request: Request) => Promise<FastifyReply>
  /** Whether an address's domain requires single sign-on (sso.ts): its links are refused. */
  ssoRequired: (email: string) => Promise<boolean>
}

/** Where a link that does not sign in leads: its error callback with `?error=<code>`. */
function toErrorCallback(
  reply: FastifyReply,
  origin: string,
  callbacks: { callbackURL?: string; errorCallbackURL?: string },
  code: 'INVALID_TOKEN' | 'SSO_REQUIRED',
) {
  const target = callbacks.errorCallbackURL ?? callbacks.callbackURL ?? '/'
  const url = new URL(target, origin)
  url.searchParams.set('error', code)
  return reply.header('cache-control', 'no-store').redirect(url.toString())
}

/**
 * Refuses (403 problem) a confirmation that did not come from a page of `origin`: a browser's
 * `Sec-Fetch-Site` (which pages cannot set) must be same-origin; without one (an older browser),
 * `Origin` or `Referer` must name `origin`. Chromium sends `Origin: null` on a form POST from a
 * page whose referrer policy is no-referrer (helmet's default), hence Sec-Fetch-Site first, and
 * the page's own `Referrer-Policy: same-origin` for browsers that lack it.
 */
function requireOwnPage(req: FastifyRequest, origin: string) {
  const site = req.headers['sec-fetch-site']
  if (site === 'same-origin' || (site === undefined && comesFrom(req, origin))) return
  throw new AppError(
    'cross_origin_request',
    `Confirm a sign-in from the page ${origin} shows; this request came from another site.`,
  )
}

export const magicLinkRoutes: FastifyPluginAsyncZod<MagicLinkRouteOptions> = async (
  app,
  { auth, origin, pageGuards, confirmGuards, relay, ssoRequired },
) => {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
    (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  )

  /** The signed-in user of the request's browser, if any. */
  const currentUser = async (req: FastifyRequest) => {
    const session = await auth.api.getSession({ headers: toFetchRequest(req, origin).headers })
    return session ? { id: session.user.id, email: session.user.email } : undefined
  }

  const sendPage = (reply: FastifyReply, page: SignInConfirmation) =>
    reply
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'same-origin')
      .type('text/html; charset=utf-8')
      .send(signInConfirmationPage(page))

  app.get(
    VERIFY_PATH,
    { schema: { hide: true, querystring: LinkFields }, preHandler: pageGuards },
    async (req, reply) => {
      const { token, ...callbacks } = req.query
      const email = await pendingSignIn(auth, token)
      if (email === undefined) return toErrorCallback(reply, origin, callbacks, 'INVALID_TOKEN')
      if (await ssoRequired(email)) return toErrorCallback(reply, origin, callbacks, 'SSO_REQUIRED')
      return sendPage(reply, {
        email,
        current: await currentUser(req),
        fields: { token, ...callbacks },
      })
    },
  )

  app.post(
    VERIFY_PATH,
    {
      schema: { hide: true, body: ConfirmationForm },
      // Before the body is read: a forged confirmation is refused whatever it holds.
      onRequest: async (req) => requireOwnPage(req, origin),
      preHandler: confirmGuards,
    },
    async (req, reply) => {
      const { signedInAs, ...fields } = req.body
      const [email, current] = await Promise.all([
        pendingSignIn(auth, fields.token),
        currentUser(req),
      ])
      const switching =
        email !== undefined &&
        current !== undefined &&
        current.email.toLowerCase() !== email.toLowerCase()
      if (email !== undefined && (await ssoRequired(email)))
        return toErrorCallback(reply, origin, fields, 'SSO_REQUIRED')
      if (switching && signedInAs !== current.id) return sendPage(reply, { email, current, fields })
      const url = new URL(VERIFY_PATH, origin)
      for (const [name, value] of Object.entries(fields)) {
        if (value !== undefined) url.searchParams.set(name, value)
      }
      return relay(req, reply, toFetchRequest(req, origin, { method: 'GET', url }))
    },
  )
}
