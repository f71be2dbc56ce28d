/**
 * Resolves the caller of an organisation route (`/api/v1/orgs/:orgId/...`) to a Principal: a
 * signed-in user (better-auth session cookie) who is a member of `orgId`. No session → 401; not a
 * member (or no such organisation) → 404, so another tenant's existence is never revealed; a role
 * below the route's minimum → 403. route-roles.ts attaches this check to every such route.
 */
import type { FastifyRequest } from 'fastify'
import { fromNodeHeaders } from 'better-auth/node'
import { getSessionCookie } from 'better-auth/cookies'
import { and, eq } from 'drizzle-orm'
import type { Db } from '../db/client'
import { member } from '../db/schema'
import type { Principal } from '../db/tenant'
import { AppError } from '../errors/app-error'
import type { Auth } from './auth'
import type { PrincipalCache, SessionFacts } from './principal-cache'
import { hasRole, toRole, type Role } from './roles'

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal
  }
}

/** The resolved principal of a guarded request; throws a 401 problem if there is none. */
export function principalOf(req: FastifyRequest): Principal {
  if (!req.principal) throw new AppError('unauthenticated', 'Not authenticated')
  return req.principal
}

/**
 * Builds the check for one route: admits members of the path's `:orgId` whose role is at least
 * `minRole` and stores their Principal on the request. Throws AppError 401 / 404 / 403 as above.
 * Both lookups go through `cache` (principal-cache.ts), so a busy session costs no query.
 */
export function organizationMemberCheck(auth: Auth, db: Db, cache: PrincipalCache) {
  const sessionOf = async (req: FastifyRequest): Promise<SessionFacts | null> => {
    const found = await auth.api.getSession({ headers: fromNodeHeaders(req.headers) })
    return found
      ? { userId: found.user.id, token: found.session.token, expiresAt: found.session.expiresAt }
      : null
  }
  const roleOf = async (userId: string, orgId: string): Promise<Role | null> => {
    const [row] = await db
      .select({ role: member.role })
      .from(member)
      .where(and(eq(member.organizationId, orgId), eq(member.userId, userId)))
      .limit(1)
    return row ? toRole(row.role) : null
  }
  return (minRole: Role) =>
    async (req: FastifyRequest): Promise<void> => {
      const cookie = getSessionCookie(new Headers({ cookie: req.headers.cookie ?? '' }))
      const userId = await cache.userIdFor(cookie, () => sessionOf(req))
      if (!userId) throw new AppError('unauthenticated', 'Not authenticated')
      const orgId = (req.params as { orgId?: string }).orgId
      if (!orgId) throw new AppError('org_missing', 'Organization id missing from the path')
      const role = await cache.roleFor(userId, orgId, () => roleOf(userId, orgId))
      if (!role) throw new AppError('organization_not_found', 'Organization not found')
      if (!hasRole(role, minRole)) {
        throw new AppError('forbidden', `This action needs the ${minRole} role or higher`)
      }
      req.principal = { orgId, userId, role, actorType: 'user' }
    }
}
