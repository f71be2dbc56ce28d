/**
 * Helmet's security headers on every answer: Lexdesk's Content-Security-Policy (everything from
 * our own origin; inline styles for Radix/Tailwind; data:/blob: images and blob: media for
 * previews and recordings) plus the transport headers that only make sense over TLS.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { onRequestHookHandler } from 'fastify'
import helmet, { type HelmetOptions } from 'helmet'

/**
 * Helmet options for an app served at `publicUrl`. CSP `upgrade-insecure-requests` and HSTS
 * are sent only when `publicUrl` is https: over plain http (a LAN install such as
 * http://192.0.2.2:3302) the first makes the browser fetch every asset over https, which fails
 * and leaves a blank page, and the second is ignored by browsers (RFC 6797 §8.1) but misleads.
 */
export function helmetOptions(publicUrl: string): HelmetOptions {
  const isHttps = new URL(publicUrl).protocol === 'https:'
  return {
    contentSecurityPolicy: {
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:'],
        'media-src': ["'self'", 'blob:'],
        'connect-src': ["'self'"],
        'upgrade-insecure-requests': isHttps ? [] : null,
      },
    },
    strictTransportSecurity: isHttps,
  }
}

/**
 * Helmet's headers (helmetOptions) as a flat `[name, value, name, value, …]` list, worked out once
 * for every answer (securityHeaders) and for answers written outside Fastify with
 * `writeHead(status, list)`: the 429 the event-stream gate sends before routing (event-streams.ts). With these options helmet's headers depend on
 * neither the request nor the response, so one run of its (synchronous) middleware on a recorder
 * gives them all; running it per answer cost a refusal of a burst more than the rest of its
 * answer (decision 0081).
 */
export function securityHeaderList(publicUrl: string): readonly string[] {
  const headers = new Map<string, string>()
  const recorder = {
    setHeader: (name: string, value: string) => headers.set(name.toLowerCase(), String(value)),
    removeHeader: (name: string) => headers.delete(name.toLowerCase()),
  }
  helmet(helmetOptions(publicUrl))(
    {} as IncomingMessage,
    recorder as unknown as ServerResponse,
    (error?: unknown) => {
      if (error) throw error
    },
  )
  return [...headers].flat()
}

/**
 * The onRequest hook that sets helmet's headers (helmetOptions) on every answer, from
 * securityHeaderList, worked out once. @fastify/helmet built helmet's middleware again for every
 * request (27 µs of the event loop per request on the loaded 2-core machine of issue 29); run
 * once built, its chain of thirteen middlewares still cost about 2 % of a listing's CPU (issue
 * 28, decision 0093) for headers that depend on neither the request nor the answer.
 */
export function securityHeaders(publicUrl: string): onRequestHookHandler {
  const list = securityHeaderList(publicUrl)
  return (_req, reply, done) => {
    for (let i = 0; i < list.length; i += 2) reply.raw.setHeader(list[i]!, list[i + 1]!)
    done()
  }
}

/**
 * @fastify/swagger-ui's `transformStaticCSP` for an app served at `publicUrl`: its own policy
 * (script and style hashes for the docs page) always ends with `upgrade-insecure-requests`, which
 * leaves /api/docs blank over plain http for the reason given in helmetOptions; the directive is
 * kept only when `publicUrl` is https.
 */
export function docsCspTransform(publicUrl: string): (csp: string) => string {
  const isHttps = new URL(publicUrl).protocol === 'https:'
  return (csp) =>
    isHttps
      ? csp
      : csp
          .split(';')
          .filter((directive) => directive.trim() !== 'upgrade-insecure-requests')
          .join(';')
          .trim()
}
