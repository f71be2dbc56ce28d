/**
 * Helmet's security headers on every answer: Lexdesk's Content-Security-Policy (everything from
 * our own origin; inline styles for Radix/Tailwind; data:/blob: images and blob: media for
 * previews and recordings) plus the transport headers that only make sense over TLS.
 */
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
 * The onRequest hook that runs helmet's middleware (helmetOptions), built once, on every answer.
 * It replaced a list of headers worked out once and copied onto each answer (decision 0093);
 * decision 0123 gave the work back to helmet (its A/B is in bench/reports/).
 */
export function securityHeaders(publicUrl: string): onRequestHookHandler {
  const middleware = helmet(helmetOptions(publicUrl))
  return (req, reply, done) =>
    middleware(req.raw, reply.raw, (error?: unknown) => done(error as Error | undefined))
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
