/**
 * An index of every route's methods, so a request that matches a path under another method can
 * be answered 405 Method Not Allowed with an `Allow` header (RFC 9110 §15.5.6) instead of
 * Fastify's 404. It uses find-my-way, Fastify's own router, so paths match exactly as Fastify
 * matches them (parameters, wildcards).
 */
import FindMyWay, { type HTTPMethod } from 'find-my-way'
import type { FastifyInstance } from 'fastify'

const METHODS: HTTPMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']

/**
 * Starts recording the routes `app` (and plugins registered after this call) declares; returns
 * `allowedMethods(path)`: the methods routed for `path` (no query string), [] when none.
 */
export function recordRouteMethods(app: FastifyInstance): (path: string) => HTTPMethod[] {
  // No parameter length limit here: Fastify answers over-long parameters itself (414).
  const router = FindMyWay({ maxParamLength: Number.MAX_SAFE_INTEGER })
  const noop = () => {}
  app.addHook('onRoute', (route) => {
    const methods = (Array.isArray(route.method) ? route.method : [route.method])
      .map((m) => m.toUpperCase() as HTTPMethod)
      .filter((m) => METHODS.includes(m) && !router.hasRoute(m, route.url))
    if (methods.length > 0) router.on(methods, route.url, noop)
  })
  return (path) => {
    const allowed = METHODS.filter((m) => router.find(m, path) !== null)
    return allowed.includes('GET') && !allowed.includes('HEAD') ? [...allowed, 'HEAD'] : allowed
  }
}
