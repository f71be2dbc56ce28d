/**
 * Access rules of every API route, declared once in its options and checked by one hook. Each
 * route under `/api/v1` names the least role it admits, and may name its method's scope and a
 * rate limit of its own: `config: { minRole: 'member' | 'admin' | 'owner', scope?: 'read' |
 * 'write', sessionOnly?: true, app?: 'own' | 'organisation', rateLimit?: { max, timeWindow } }`
 * (scope defaults to read for GET and HEAD, write otherwise: scopes.ts; rateLimit is
 * @fastify/rate-limit's route option: api-rate-limits.ts). `app` says how a credential bound to
 * one app may use the route (decision 0136, amended): `'own'` (the default) serves it, confined
 * to its app by RLS and the app clause below; `'organisation'` (a route whose rows belong to the
 * whole organisation, with no app: the audit log, storage, the SQL runner, creating apps) refuses
 * it, 403 `outside_app_scope` (`appReachAdmits`). The scope a credential needs is `requiredScope`: the method's scope on
 * member routes, `admin` on admin and owner routes; owner routes, and routes declaring
 * `sessionOnly` (acts that need a person signed in, such as the team's), are never open to a
 * credential (`credentialsAdmitted`, decisions 0047 and 0050).
 * - `declareRouteRoles(api, …)` (an onRoute hook on the `/api/v1` scope) refuses at start-up a
 *   route without a valid `minRole` (or scope) or outside `/api/v1/orgs/:orgId`, runs the guard
 *   as the route's first onRequest hook (resolve the principal: principal.ts; then its role, its
 *   scope, whether an app-bound credential may use it (`app`), and its budget of requests of that
 *   scope: api-rate-limits.ts), then, once the input
 *   is validated, refuses an app-bound credential naming another app in the query or JSON body
 *   (404 `app_not_found`, http/app-reach.ts; in a form, readMultipart does), and declares the
 *   Problem error responses in its schema;
 * - `openApiTransform` exports `minRole`, the scope, `sessionOnly` and `app` as the operation
 *   extensions `x-min-role`, `x-scope`, `x-session-only` and `x-app-reach`, which
 *   server/auth/route-roles.test.ts walks. The matrix is in docs/authorization.md.
 * The guard runs on onRequest, before the body is read or validated, so a caller without the
 * role never gets a multipart upload parsed nor learns the route's input rules.
 */
import type {
  FastifyInstance,
  FastifyRequest,
  onRequestHookHandler,
  preHandlerHookHandler,
} from 'fastify'
import { jsonSchemaTransform } from 'fastify-type-provider-zod'
import type { Db } from '../db/client'
import { AppError } from '../errors/app-error'
import { withProblemResponses } from '../http/problem-responses'
import { scopeBudgets } from './api-rate-limits'
import type { ApiRateLimits } from '../config'
import type { Auth } from './auth'
import type { CredentialRegistry } from './credential-registry'
import { principalResolver, type RequestPrincipal } from './principal'
import type { PrincipalCache } from './principal-cache'
import { hasRole, ROLES, type Role } from '../db/roles'
import { operationSecurity } from './openapi-security'
import { assertNamedAppsInReach } from '../http/app-reach'
import { defaultScope, METHOD_SCOPES, type MethodScope, type Scope } from './scopes'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The least organisation role admitted (required on every `/api/v1` route). */
    minRole?: Role
    /** Whether the route reads or writes (default: read for GET/HEAD, write otherwise). */
    scope?: MethodScope
    /** Only a person signed in may call it, never an API key or token (403 `session_required`). */
    sessionOnly?: true
    /**
     * How a credential bound to one app may use the route: `'own'` (default) serves it within
     * its app; `'organisation'` refuses it (403 `outside_app_scope`): the route reaches rows of
     * the whole organisation, which no app confines.
     */
    app?: AppReach
  }
}

/** The values of a route's `config.app` (AppReach): see `appReachAdmits`. */
export const APP_REACHES = ['own', 'organisation'] as const
/** How a credential bound to one app may use a route (`config.app`, default `'own'`). */
export type AppReach = (typeof APP_REACHES)[number]

/** OpenAPI operation extension carrying a route's `config.minRole`. */
export const MIN_ROLE_EXTENSION = 'x-min-role'
/** OpenAPI operation extension carrying the scope a route needs. */
export const SCOPE_EXTENSION = 'x-scope'
/** OpenAPI operation extension: the scope a credential needs there (`requiredScope`). */
export const REQUIRED_SCOPE_EXTENSION = 'x-required-scope'
/** OpenAPI operation extension, `true` on a route declaring `config.sessionOnly`. */
export const SESSION_ONLY_EXTENSION = 'x-session-only'
/** OpenAPI operation extension carrying a route's `config.app` (AppReach; `'own'` when absent). */
export const APP_REACH_EXTENSION = 'x-app-reach'

/**
 * The `detail` of the 403 `outside_app_scope` answering an app-bound credential on a route of
 * `app: 'organisation'` (the walk tells it from a write RLS refuses by this text).
 */
export const ORGANISATION_ONLY_DETAIL =
  'This reaches the whole organisation, not one app: a credential bound to an app cannot use it; use a session or a credential not bound to an app'

const ORGANISATION_ROUTE = /^\/api\/v1\/orgs\/:orgId(\/|$)/

/** Whether a route reads or writes: its declared `config.scope`, else its method's default. */
function routeScope(route: {
  method: string | readonly string[]
  config?: { scope?: unknown }
}): MethodScope | null {
  const declared = route.config?.scope
  if (declared === undefined) return defaultScope(route.method)
  return METHOD_SCOPES.includes(declared as MethodScope) ? (declared as MethodScope) : null
}

/**
 * The scope a principal needs on a route of `minRole` that reads or writes (`methodScope`): the
 * one mapping of scopes to routes. `read` and `write` open member routes by method; `admin`
 * opens admin (and owner) routes, whatever their method. A session holds every scope.
 */
export function requiredScope(minRole: Role, methodScope: MethodScope): Scope {
  return minRole === 'member' ? methodScope : 'admin'
}

/**
 * Whether a credential (API key, tenant token) may call a route of `minRole`: never an owner's
 * route (deleting the firm, letting its documents leave need the person) nor a `sessionOnly` one.
 */
export function credentialsAdmitted(minRole: Role, sessionOnly: boolean): boolean {
  return minRole !== 'owner' && !sessionOnly
}

/**
 * Whether a principal bound to app `appId` (null: none, the whole organisation) may use a route
 * of `reach`: an organisation-wide principal may use every route; one bound to an app only the
 * routes of `'own'` reach, which RLS and the app clause confine to its app.
 */
export function appReachAdmits(reach: AppReach, appId: string | null | undefined): boolean {
  return reach === 'own' || !appId
}

/** A route's declared `config.app`, `'own'` when absent; null when it is not an AppReach. */
function routeAppReach(route: { config?: { app?: unknown } }): AppReach | null {
  const declared = route.config?.app ?? 'own'
  return APP_REACHES.includes(declared as AppReach) ? (declared as AppReach) : null
}

/**
 * Registers the onRoute hook on `api` (the `/api/v1` plugin scope); call it before registering
 * that scope's routes. Registering a route without a valid `config.minRole`, with an unknown
 * `config.scope` or `config.app`, or with methods of both kinds and no scope, throws an Error.
 */
export function declareRouteRoles(
  api: FastifyInstance,
  deps: {
    auth: Auth
    db: Db
    principals: PrincipalCache
    credentials: CredentialRegistry
    rateLimits: ApiRateLimits
  },
): void {
  const resolvePrincipal = principalResolver({ ...deps, cache: deps.principals })
  const chargeBudget = scopeBudgets(api, deps.rateLimits)
  /** The role, scope, credential and app checks of a route, then its budget's count. */
  const admit = (
    req: FastifyRequest,
    principal: RequestPrincipal,
    minRole: Role,
    methodScope: MethodScope,
    sessionOnly: boolean,
    reach: AppReach,
  ): Promise<void> => {
    if (!hasRole(principal.role, minRole)) {
      throw new AppError('forbidden', `This action needs the ${minRole} role or higher`)
    }
    const scope = requiredScope(minRole, methodScope)
    if (!principal.scopes.includes(scope)) {
      throw new AppError(
        'insufficient_scope',
        `This action needs a credential with the ${scope} scope`,
      )
    }
    if (principal.credentialId !== null && !credentialsAdmitted(minRole, sessionOnly)) {
      throw minRole === 'owner'
        ? new AppError('forbidden', 'Only an owner, signed in, can do this; never a credential')
        : new AppError(
            'session_required',
            'Only a person signed in can do this; never a credential',
          )
    }
    if (!appReachAdmits(reach, principal.appId)) {
      throw new AppError('outside_app_scope', ORGANISATION_ONLY_DETAIL)
    }
    req.principal = principal
    return chargeBudget(req, methodScope)
  }
  // Not an async function: a principal resolved from the cache (no promise) is admitted in the
  // same tick, and only the rate limit's count is awaited (decision 0095). Fastify turns a throw
  // here, as a rejection, into the error answer.
  const guard =
    (minRole: Role, methodScope: MethodScope, sessionOnly: boolean, reach: AppReach) =>
    (req: FastifyRequest): Promise<void> => {
      const resolved = resolvePrincipal(req)
      return resolved instanceof Promise
        ? resolved.then((principal) =>
            admit(req, principal, minRole, methodScope, sessionOnly, reach),
          )
        : admit(req, resolved, minRole, methodScope, sessionOnly, reach)
    }

  const appClause: preHandlerHookHandler = (req, _reply, done) => {
    try {
      if (req.principal) {
        assertNamedAppsInReach(req.principal, req.query)
        assertNamedAppsInReach(req.principal, req.body)
      }
    } catch (error) {
      done(error as Error)
      return
    }
    done()
  }

  api.addHook('onRoute', (route) => {
    const where = `${String(route.method)} ${route.url}`
    const minRole = route.config?.minRole
    if (!minRole || !ROLES.includes(minRole)) {
      throw new Error(
        `${where} must declare config.minRole (${ROLES.join(' | ')}); see docs/authorization.md`,
      )
    }
    const scope = routeScope(route)
    if (!scope) {
      throw new Error(`${where} must declare config.scope (${METHOD_SCOPES.join(' | ')})`)
    }
    const reach = routeAppReach(route)
    if (!reach) {
      throw new Error(`${where} declares an unknown config.app (${APP_REACHES.join(' | ')})`)
    }
    if (!ORGANISATION_ROUTE.test(route.url)) {
      throw new Error(
        `${where} is outside /api/v1/orgs/:orgId; roles are per organisation, so such a route needs its own check in server/auth/route-roles.ts`,
      )
    }
    const own: onRequestHookHandler[] = route.onRequest ? [route.onRequest].flat() : []
    route.onRequest = [guard(minRole, scope, route.config?.sessionOnly === true, reach), ...own]
    // After validation, when the query and a JSON body are parsed: an app-bound credential names
    // no other app in them, whatever the route (http/app-reach.ts; a form's: readMultipart).
    const ownPreHandlers: preHandlerHookHandler[] = route.preHandler
      ? [route.preHandler].flat()
      : []
    route.preHandler = [appClause, ...ownPreHandlers]
    route.schema = withProblemResponses(route.schema)
  })
}

/** The OpenAPI schema of a multipart form (openApiTransform). */
const MULTIPART_FORM = {
  type: 'object',
  additionalProperties: true,
  description:
    "The fields the description names; a field appId, app_id or _app naming an app other than an app-bound credential's is 404 app_not_found.",
}

/**
 * The swagger `transform`: fastify-type-provider-zod's zod → JSON Schema conversion, plus the
 * route's `config.minRole` as `x-min-role`, whether it reads or writes as `x-scope`, the scope a
 * credential needs (`requiredScope` of the two) as `x-required-scope`, how an app-bound credential
 * may use it (`config.app`) as `x-app-reach`, the operation's `security`
 * (openapi-security.ts; Swagger UI shows the extensions, server/app.ts), and a multipart route's
 * form as its request body (MULTIPART_FORM). A route without `minRole` (outside `/api/v1`: the
 * probes) gets an empty `security`.
 */
export const openApiTransform: typeof jsonSchemaTransform = (input) => {
  const result = jsonSchemaTransform(input)
  if (!result.schema || result.schema.hide) return result
  const minRole = input.route.config?.minRole
  // A route outside the guard (the health probes) takes no credential at all.
  if (!minRole) return { ...result, schema: { ...result.schema, security: [] } }
  const scope = routeScope(input.route)
  const sessionOnly = input.route.config?.sessionOnly === true
  const admitsCredentials = credentialsAdmitted(minRole, sessionOnly)
  const needed = scope && requiredScope(minRole, scope)
  const reach = routeAppReach(input.route)
  // A form is read by its route (readMultipart), not validated by a schema: declared as an
  // object, so the document says the operation takes one (its description names the fields).
  const form = [result.schema.consumes ?? []].flat().includes('multipart/form-data')
  return {
    ...result,
    schema: {
      ...result.schema,
      ...(form && !result.schema.body && { body: MULTIPART_FORM }),
      ...(needed && { security: operationSecurity(admitsCredentials, needed) }),
      [MIN_ROLE_EXTENSION]: minRole,
      [SCOPE_EXTENSION]: scope,
      ...(needed && { [REQUIRED_SCOPE_EXTENSION]: needed }),
      ...(sessionOnly && { [SESSION_ONLY_EXTENSION]: true }),
      ...(reach && { [APP_REACH_EXTENSION]: reach }),
    },
  }
}
