/**
 * Roles on every API route, declared once. Each route under `/api/v1` names the least role it
 * admits in its options, `config: { minRole: 'member' | 'admin' | 'owner' }`, and nothing else:
 * - `declareRouteRoles(api, …)` (an onRoute hook on the `/api/v1` scope) refuses at start-up a
 *   route without a valid `minRole` or outside `/api/v1/orgs/:orgId`, runs the membership and role
 *   check (principal.ts) as the route's first onRequest hook, and declares the Problem error
 *   responses in its schema;
 * - `openApiTransform` exports `minRole` as the operation extension `x-min-role`, which
 *   server/auth/route-roles.test.ts walks. The matrix is in docs/authorization.md.
 * The check runs on onRequest, before the body is read or validated, so a caller without the
 * role never gets a multipart upload parsed nor learns the route's input rules.
 */
import type { FastifyInstance, onRequestHookHandler } from 'fastify'
import { jsonSchemaTransform } from 'fastify-type-provider-zod'
import type { Db } from '../db/client'
import { withProblemResponses } from '../http/problem-responses'
import type { Auth } from './auth'
import { organizationMemberCheck } from './principal'
import type { PrincipalCache } from './principal-cache'
import { ROLES, type Role } from './roles'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The least organisation role admitted (required on every `/api/v1` route). */
    minRole?: Role
  }
}

/** OpenAPI operation extension carrying a route's `config.minRole`. */
export const MIN_ROLE_EXTENSION = 'x-min-role'

const ORGANIZATION_ROUTE = /^\/api\/v1\/orgs\/:orgId(\/|$)/

/**
 * Registers the onRoute hook on `api` (the `/api/v1` plugin scope); call it before registering
 * that scope's routes. Registering a route without `config.minRole` throws an Error.
 */
export function declareRouteRoles(
  api: FastifyInstance,
  deps: { auth: Auth; db: Db; principals: PrincipalCache },
): void {
  const check = organizationMemberCheck(deps.auth, deps.db, deps.principals)
  api.addHook('onRoute', (route) => {
    const where = `${String(route.method)} ${route.url}`
    const minRole = route.config?.minRole
    if (!minRole || !ROLES.includes(minRole)) {
      throw new Error(
        `${where} must declare config.minRole (${ROLES.join(' | ')}); see docs/authorization.md`,
      )
    }
    if (!ORGANIZATION_ROUTE.test(route.url)) {
      throw new Error(
        `${where} is outside /api/v1/orgs/:orgId; roles are per organisation, so such a route needs its own check in server/auth/route-roles.ts`,
      )
    }
    const own: onRequestHookHandler[] = route.onRequest ? [route.onRequest].flat() : []
    route.onRequest = [check(minRole), ...own]
    route.schema = withProblemResponses(route.schema)
  })
}

/**
 * The swagger `transform`: fastify-type-provider-zod's zod → JSON Schema conversion, plus the
 * route's `config.minRole` as `x-min-role` on its operation.
 */
export const openApiTransform: typeof jsonSchemaTransform = (input) => {
  const result = jsonSchemaTransform(input)
  const minRole = input.route.config?.minRole
  if (!minRole || !result.schema || result.schema.hide) return result
  return { ...result, schema: { ...result.schema, [MIN_ROLE_EXTENSION]: minRole } }
}
