/**
 * Resolves the caller of an organisation route (`/api/v1/orgs/:orgId/...`) to a Principal, from
 * one credential only: the `Authorization` (or `x-api-key`) header when the request has one (a
 * verifier of the credential registry checks it), else the better-auth session cookie. A request with a header
 * that no verifier accepts is a 401 even when it also carries a valid session cookie: a client
 * sending a key means to act as that key, and a browser's cookie must not stand in for it
 * (decision 0040). No credential → 401; a caller who is not a member of `orgId` (or a credential
 * of another organisation, or no such organisation) → 404, so another tenant's existence is never
 * revealed. route-roles.ts then checks the route's role, scope and rate limit.
 */
import type { FastifyRequest } from 'fastify'
import { fromNodeHeaders } from 'better-auth/node'
import { getSessionCookie } from 'better-auth/cookies'
import type { Db } from '../db/client'
import type { Principal } from '../db/tenant'
import type { Role } from '../db/roles'
import { AppError } from '../errors/app-error'
import type { Auth } from './auth'
import type { CredentialRegistry } from './credential-registry'
import type { PrincipalCache, SessionFacts } from './principal-cache'
import { memberRole } from './member-role'
import { SCOPES, type Scope } from './scopes'

/**
 * The principal of a request: who acts for which organisation (the tenancy Principal that
 * services, withTenant and the audit log take), and through which credential.
 */
export interface RequestPrincipal extends Principal {
  /** The credential's id (an API key's, say); null for a session, which is the user's own. */
  credentialId: string | null
  /** What the credential may do; a session holds every scope. */
  scopes: readonly Scope[]
  /** The app the credential is bound to; null for a session and for whole-organisation ones. */
  appId: string | null
}

declare module 'fastify' {
  interface FastifyRequest {
    principal?: RequestPrincipal
  }
}

/** The resolved principal of a guarded request; throws a 401 problem if there is none. */
export function principalOf(req: FastifyRequest): RequestPrincipal {
  if (!req.principal) throw new AppError('unauthenticated', 'Not authenticated')
  return req.principal
}

/**
 * The credential header of `req` as an Authorization value: its `Authorization` header, else its
 * `x-api-key` header as a Bearer credential (API keys are also sent that way, decision 0047), else
 * undefined. A repeated `x-api-key` yields an invalid value (a 401), never one of its copies.
 */
export function credentialHeader(req: Pick<FastifyRequest, 'headers'>): string | undefined {
  const { authorization, 'x-api-key': apiKey } = req.headers
  if (authorization !== undefined) return authorization
  if (apiKey === undefined) return undefined
  return typeof apiKey === 'string' ? `Bearer ${apiKey}` : ''
}

/** The 401 of a refused Authorization header, with its challenge (RFC 6750 §3). */
function invalidCredential(): AppError {
  return new AppError(
    'unauthenticated',
    'The credential in the Authorization header is not valid',
    {
      'www-authenticate': 'Bearer error="invalid_token"',
    },
  )
}

/** The 404 of an organisation the caller cannot see. */
function organisationNotFound(): AppError {
  return new AppError('organization_not_found', 'Organization not found')
}

/**
 * The principal of an Authorization header's credential, in the credential's own organisation
 * (for a path naming an organisation, the caller compares it); a 401 problem with its
 * `WWW-Authenticate` challenge when no verifier accepts the credential.
 */
export async function credentialPrincipal(
  credentials: CredentialRegistry,
  header: string,
): Promise<RequestPrincipal> {
  const found = credentials.verifierFor(header)
  const credential = found ? await found.verifier.verify(found.token) : null
  if (!credential) throw invalidCredential()
  const { orgId, credentialId, userId, role, scopes, appId, actorType } = credential
  return { orgId, userId, role, actorType, credentialId, scopes, appId }
}

/**
 * Builds `resolvePrincipal(req)`: the principal of `req` for the organisation of its path, or an
 * AppError 401 / 404 / 400 (no `:orgId`) as described above; answered at once (not a promise)
 * when the session and its role are cached, else as a promise that rejects with the AppError.
 * Session and membership lookups go through `cache` (principal-cache.ts), so a busy session costs
 * no query.
 */
export function principalResolver(deps: {
  auth: Auth
  db: Db
  cache: PrincipalCache
  credentials: CredentialRegistry
}) {
  const { auth, db, cache, credentials } = deps
  const sessionOf = async (req: FastifyRequest): Promise<SessionFacts | null> => {
    const found = await auth.api.getSession({ headers: fromNodeHeaders(req.headers) })
    return found
      ? { userId: found.user.id, token: found.session.token, expiresAt: found.session.expiresAt }
      : null
  }
  // The session cookie of a Cookie header, as better-auth finds it (its own parser).
  const sessionCookieOf = (header: string | undefined): string | null =>
    header ? getSessionCookie(new Headers({ cookie: header })) : null
  const orgIdOf = (req: FastifyRequest): string => {
    const orgId = (req.params as { orgId?: string }).orgId
    if (!orgId) throw new AppError('org_missing', 'Organization id missing from the path')
    return orgId
  }

  const fromHeader = async (req: FastifyRequest, header: string): Promise<RequestPrincipal> => {
    const principal = await credentialPrincipal(credentials, header)
    if (principal.orgId !== orgIdOf(req)) throw organisationNotFound()
    return principal
  }

  const sessionPrincipal = (orgId: string, userId: string, role: Role): RequestPrincipal => ({
    orgId,
    userId,
    role,
    actorType: 'user',
    credentialId: null,
    scopes: SCOPES,
    appId: null,
  })

  const fromSession = async (req: FastifyRequest): Promise<RequestPrincipal> => {
    const cookie = sessionCookieOf(req.headers.cookie)
    const userId = await cache.userIdFor(cookie, () => sessionOf(req))
    if (!userId) throw new AppError('unauthenticated', 'Not authenticated')
    const orgId = orgIdOf(req)
    const role = await cache.roleFor(userId, orgId, () => memberRole(db, userId, orgId))
    if (!role) throw organisationNotFound()
    return sessionPrincipal(orgId, userId, role)
  }

  // The same answer as fromSession's when its session and role are both cached, without an
  // await: a busy session's requests skip the five promises of the lookup path (decision 0095).
  const cachedSession = (req: FastifyRequest): RequestPrincipal | undefined => {
    const userId = cache.cachedUserId(sessionCookieOf(req.headers.cookie))
    const orgId = (req.params as { orgId?: string }).orgId
    const role = userId && orgId ? cache.cachedRole(userId, orgId) : undefined
    return role ? sessionPrincipal(orgId!, userId!, role) : undefined
  }

  return function resolvePrincipal(
    req: FastifyRequest,
  ): RequestPrincipal | Promise<RequestPrincipal> {
    const header = credentialHeader(req)
    // Present, even empty: the caller chose the header, so the cookie is never consulted.
    if (header !== undefined) return fromHeader(req, header)
    return cachedSession(req) ?? fromSession(req)
  }
}
