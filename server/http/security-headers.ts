/**
 * Security headers on every answer: Lexdesk's Content-Security-Policy (everything from our own
 * origin; inline styles for Radix/Tailwind; data:/blob: images and blob: media for previews and
 * recordings) plus the transport headers that only make sense over TLS, set by the `helmet`
 * middleware.
 *
 * The middleware is built once per app. @fastify/helmet, the usual wrapper, builds it again for
 * every request (it parses the policy each time, in two hooks): 5 % of the server's time on a
 * page of the library (decision 7), for the same headers.
 */
import type { FastifyInstance } from 'fastify'
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

/** The helmet middleware for an app served at `publicUrl`: `(req, res, next)` on Node's objects. */
export function securityHeaders(publicUrl: string) {
  return helmet(helmetOptions(publicUrl))
}

/** Sets the security headers on every answer of `app`, first thing (an onRequest hook). */
export function addSecurityHeaders(app: FastifyInstance, publicUrl: string): void {
  const setHeaders = securityHeaders(publicUrl)
  app.addHook('onRequest', (req, reply, done) =>
    setHeaders(req.raw, reply.raw, (error) => done(error as Error | undefined)),
  )
}
