/**
 * Scopes: what a credential may do in its organisation, apart from its role. A route needs one
 * scope (route-roles.ts `requiredScope`, the one place the mapping lives): `read` for the GET and
 * HEAD of member routes, `write` for member routes that change something, `admin` for every
 * route whose least role is admin or owner. A caller whose principal lacks it gets 403
 * `insufficient_scope`. A session (a person signed in) holds every scope; an API key or tenant
 * token may hold fewer, e.g. only `read` (decisions 0040, 0047).
 */
export const SCOPES = ['read', 'write', 'admin'] as const

export type Scope = (typeof SCOPES)[number]

/** The scopes of a new API key or tenant token given none (product spec: default 'read,write'). */
export const DEFAULT_SCOPES: readonly Scope[] = ['read', 'write']

/** The scopes a route may declare by its method's kind (`config.scope`): reading or writing. */
export const METHOD_SCOPES = ['read', 'write'] as const

export type MethodScope = (typeof METHOD_SCOPES)[number]

/** HTTP methods that change nothing (RFC 9110 §9.2.1, "safe" methods). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * The method scope of a route that declares none: `read` for GET and HEAD, `write` for every
 * other method (a POST that only reads, such as a search, declares `scope: 'read'` itself). For
 * a route of several methods mixing both kinds, null: that route must declare its scope.
 */
export function defaultScope(method: string | readonly string[]): MethodScope | null {
  const methods = [method].flat().map((m) => m.toUpperCase())
  if (methods.every((m) => SAFE_METHODS.has(m))) return 'read'
  if (methods.every((m) => !SAFE_METHODS.has(m))) return 'write'
  return null
}
