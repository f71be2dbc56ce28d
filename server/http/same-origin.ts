/**
 * Cross-site request forgery defence for cookie-authenticated writes. Browsers attach the
 * SameSite=Lax session cookie to requests from any *same-site* page (another port of the same
 * host, a sibling subdomain), and a multipart or text/plain `fetch` needs no CORS preflight, so
 * the cookie alone does not prove the request came from Lexdesk's own pages.
 *
 * Rule (OWASP CSRF Prevention Cheat Sheet, "Verifying Origin With Standard Headers"): a request
 * with any method but GET, HEAD or OPTIONS that carries a Cookie header and no Authorization
 * (or x-api-key) header must name `PUBLIC_URL`'s origin in `Origin`, or, when a browser left `Origin` out, in
 * `Referer`; otherwise it is refused with a 403 problem `cross_origin_request` before its body
 * is read. Requests authenticated by an Authorization header (API keys, tenant tokens) cannot
 * be forged by a page and are left to their own checks. It covers every path, better-auth's
 * included (its own check let a cross-origin `organization/create` through).
 *
 * A WebSocket upgrade is a GET, but it opens a channel that reads the organisation's changes
 * and stays open: browsers send the cookie with it from any site and no CORS rule applies to
 * WebSockets (cross-site WebSocket hijacking), so an upgrade carrying a cookie must name
 * `PUBLIC_URL`'s origin in `Origin` too (browsers always send it on an upgrade; decision 0052).
 */
import type { FastifyRequest, onRequestHookHandler } from 'fastify'
import { AppError } from '../errors/app-error'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** The origin of `value` (an Origin or Referer header), or undefined when it is not a URL. */
function originOf(value: string | undefined): string | undefined {
  if (!value || value === 'null') return undefined
  try {
    return new URL(value).origin
  } catch {
    return undefined
  }
}

/** Whether `req` claims to come from `origin` through its Origin header, or else its Referer. */
export function comesFrom(req: FastifyRequest, origin: string): boolean {
  const claimed =
    req.headers.origin !== undefined ? originOf(req.headers.origin) : originOf(req.headers.referer)
  return claimed === origin
}

/**
 * Builds the onRequest hook for `publicUrl` (e.g. https://lexdesk.firm.example). Answers AppError
 * 403 `cross_origin_request` for a cookie-authenticated write from another origin. A callback
 * hook, not an async one: it runs on every request and decides synchronously, so it need not
 * cost the request two promises (decision 0095).
 */
export function sameOriginWrites(publicUrl: string): onRequestHookHandler {
  const origin = new URL(publicUrl).origin
  const refused = (req: FastifyRequest): boolean => {
    const upgrade = req.headers.upgrade?.toLowerCase() === 'websocket'
    if (SAFE_METHODS.has(req.method) && !upgrade) return false
    if (!req.headers.cookie || req.headers.authorization || req.headers['x-api-key']) return false
    return upgrade ? originOf(req.headers.origin) !== origin : !comesFrom(req, origin)
  }
  return (req, _reply, done) =>
    done(
      refused(req)
        ? new AppError(
            'cross_origin_request',
            `Changes must be sent from ${origin}; this request came from another site.`,
          )
        : undefined,
    )
}
