/**
 * Indexes of routes' methods, so a request that matches a path under another method can be
 * answered 405 Method Not Allowed with an `Allow` header (RFC 9110 §15.5.6) instead of a 404.
 * They use find-my-way, Fastify's own router, so paths match exactly as Fastify matches them
 * (parameters, wildcards).
 */
import FindMyWay, { type HTTPMethod } from 'find-my-way'
import type { FastifyInstance } from 'fastify'

const METHODS: HTTPMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']

/** A set of route patterns with their methods. */
export interface MethodIndex {
  /** Adds `methods` (any case; unknown ones ignored) for the pattern `path`, e.g. '/orgs/:orgId'. */
  add(methods: string | readonly string[], path: string): void
  /** The methods routed for the concrete `path` (no query string), HEAD implied by GET; [] if none. */
  allowed(path: string): HTTPMethod[]
  /** Whether `method` (upper case, as Node gives it) is routed for the concrete `path`. */
  has(method: string, path: string): boolean
}

/** Creates an empty index. */
export function createMethodIndex(): MethodIndex {
  // No parameter length limit here: Fastify answers over-long parameters itself (414).
  const router = FindMyWay({ maxParamLength: Number.MAX_SAFE_INTEGER })
  const noop = () => {}
  return {
    add(methods, path) {
      const fresh = (typeof methods === 'string' ? [methods] : methods)
        .map((m) => m.toUpperCase() as HTTPMethod)
        .filter((m) => METHODS.includes(m) && !router.hasRoute(m, path))
      if (fresh.length > 0) router.on(fresh, path, noop)
    },
    allowed(path) {
      const found = METHODS.filter((m) => router.find(m, path) !== null)
      return found.includes('GET') && !found.includes('HEAD') ? [...found, 'HEAD'] : found
    },
    has(method, path) {
      return (
        METHODS.includes(method as HTTPMethod) && router.find(method as HTTPMethod, path) !== null
      )
    },
  }
}

/**
 * Starts recording the routes `app` (and plugins registered after this call) declares; returns
 * `allowedMethods(path)`, see MethodIndex.allowed.
 */
export function recordRouteMethods(app: FastifyInstance): (path: string) => HTTPMethod[] {
  const index = createMethodIndex()
  app.addHook('onRoute', (route) => index.add(route.method, route.url))
  return (path) => index.allowed(path)
}
