/**
 * Resolves the caller of a tenant route (`/api/v1/orgs/:orgId/...`) to a Principal: a signed-in
 * user (better-auth session cookie) who is a member of `orgId`. No session → 401; not a member
 * (or no such organisation) → 404, so another tenant's existence is never revealed; a role below
 * the route's minimum → 403.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { fromNodeHeaders } from 'better-auth/node'
import { and, eq } from 'drizzle-orm'
import type { Db } from '../db/client'
import { member } from '../db/schema'
import type { Principal } from '../db/tenant'
import { AppError } from '../http/app-error'
import type { Auth } from './auth'

export type Role = Principal['role']
const RANK: Record<Role, number> = { member: 1, admin: 2, owner: 3 }

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal
  }
}

/** The resolved principal of a guarded request; throws if the route forgot its guard. */
export function principalOf(req: FastifyRequest): Principal {
  if (!req.principal) throw new AppError('unauthenticated', 401, 'Not authenticated')
  return req.principal
}

/** Returns the signed-in user's id, or throws a 401 problem. */
export async function requireUserId(auth: Auth, req: FastifyRequest): Promise<string> {
  const session = await auth.api.getSession({ headers: fromNodeHeaders(req.headers) })
  if (!session) throw new AppError('unauthenticated', 401, 'Not authenticated')
  return session.user.id
}

/** Builds a preHandler that admits members of `:orgId` with at least `minRole`. */
export function memberGuard(auth: Auth, db: Db) {
  return (minRole: Role = 'member') =>
    async (req: FastifyRequest, _reply: FastifyReply): Promise<void> => {
      const userId = await requireUserId(auth, req)
      const orgId = (req.params as { orgId?: string }).orgId
      if (!orgId) throw new AppError('org_missing', 400, 'Organization id missing from the path')
      const [row] = await db
        .select({ role: member.role })
        .from(member)
        .where(and(eq(member.organizationId, orgId), eq(member.userId, userId)))
        .limit(1)
      if (!row) throw new AppError('organization_not_found', 404, 'Organization not found')
      const role = (row.role in RANK ? row.role : 'member') as Role
      if (RANK[role] < RANK[minRole]) {
        throw new AppError('forbidden', 403, `This action needs the ${minRole} role`)
      }
      req.principal = { orgId, userId, role, actorType: 'user' }
    }
}
