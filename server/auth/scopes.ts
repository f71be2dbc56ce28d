/**
 * Scopes: what a credential may do in its organisation, apart from its role. A route needs one
 * scope (`config.scope`, route-roles.ts); a caller whose principal lacks it gets 403
 * `insufficient_scope`. A session (a person signed in) holds every scope; an API key or tenant
 * token (later issues) may hold fewer, e.g. only `read`.
 */
export const SCOPES = ['read', 'write'] as const

export type Scope = (typeof SCOPES)[number]

/** HTTP methods that change nothing (RFC 9110 §9.2.1, "safe" methods). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * The scope a route needs when it declares none: `read` for GET and HEAD, `write` for every other
 * method (a POST that only reads, such as a search, declares `scope: 'read'` itself). For a
 * route of several methods mixing both kinds, null: that route must declare its scope.
 */
export function defaultScope(method: string | readonly string[]): Scope | null {
  const methods = [method].flat().map((m) => m.toUpperCase())
  if (methods.every((m) => SAFE_METHODS.has(m))) return 'read'
  if (methods.every((m) => !SAFE_METHODS.has(m))) return 'write'
  return null
}
