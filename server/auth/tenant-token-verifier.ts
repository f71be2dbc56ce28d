/**
 * The credential verifier of tenant tokens (`Bearer ldt_…`, decision 0048). A token is valid when
 * its signature and expiry check (tenant-token-jwt.ts), its row in `tenant_tokens` exists in its
 * organisation for its app and is not revoked, and, when a person minted it (`sub` is a user id),
 * that person is still a member of the organisation. It acts as a `token` principal with the
 * token's scopes and app; its role is `admin` when it holds the `admin` scope (and its minter is
 * still an admin or owner), else `member`; never `owner`.
 *
 * The row lookup is cached per `jti` for `ttlMs` (default 10 s, as sessions are: decision 7), so
 * a busy token costs one query per period; `forget(jti)` (called by the revocation) drops the
 * entry and keeps lookups already under way from storing theirs, so a revoked token is refused
 * at once by this process and by another process within `ttlMs`. The minter's role goes through
 * the principal cache, which forgets it when a membership changes.
 */
import { eq } from 'drizzle-orm'
import { LRUCache } from 'lru-cache'
import type { Db } from '../db/client'
import { hasRole, type Role } from '../db/roles'
import { tenantTokens } from '../db/schema'
import { withTenant } from '../db/tenant'
import type { CredentialVerifier } from './credential-registry'
import { memberRole } from './member-role'
import type { PrincipalCache } from './principal-cache'
import { SCOPES, type Scope } from './scopes'
import {
  TENANT_TOKEN_PREFIX,
  type TenantTokenClaims,
  type TenantTokenJwt,
} from './tenant-token-jwt'

/** The tenant-token verifier, and the hook its revocation calls. */
export interface TenantTokenVerifier extends CredentialVerifier {
  /** Forgets what is cached of token `jti` (after revoking it). */
  forget(jti: string): void
}

/** Whether `sub` names a person (a user id) rather than a credential (`api_key:<id>`). */
export function isPersonalSubject(sub: string): boolean {
  return !sub.includes(':')
}

/** Creates the verifier. */
export function createTenantTokenVerifier(deps: {
  db: Db
  jwt: TenantTokenJwt
  principals: PrincipalCache
  /** Longest reuse of a token's row lookup, in ms (default 10,000). */
  ttlMs?: number
}): TenantTokenVerifier {
  const { db, jwt, principals } = deps
  const live = new LRUCache<string, boolean>({
    max: 10_000,
    ttl: deps.ttlMs ?? 10_000,
    ttlResolution: 0,
  })
  // Bumped by every forget(); a lookup stores its answer only if none happened meanwhile.
  let generation = 0

  /** Whether the token's row is in its organisation, for its app, and not revoked. */
  const isLive = async (claims: TenantTokenClaims): Promise<boolean> => {
    const cached = live.get(claims.jti)
    if (cached !== undefined) return cached
    const started = generation
    const [row] = await withTenant(db, { orgId: claims.org_id }, (tx) =>
      tx
        .select({ appId: tenantTokens.appId, revokedAt: tenantTokens.revokedAt })
        .from(tenantTokens)
        .where(eq(tenantTokens.jti, claims.jti))
        .limit(1),
    )
    const answer = row !== undefined && row.revokedAt === null && row.appId === claims.app_id
    if (started === generation) live.set(claims.jti, answer)
    return answer
  }

  /** The role the token acts with, or null when its minter has left the organisation. */
  const roleOf = async (claims: TenantTokenClaims, scopes: string[]): Promise<Role | null> => {
    const wantsAdmin = scopes.includes('admin')
    if (!isPersonalSubject(claims.sub)) return wantsAdmin ? 'admin' : 'member'
    const held = await principals.roleFor(claims.sub, claims.org_id, () =>
      memberRole(db, claims.sub, claims.org_id),
    )
    if (!held) return null
    return wantsAdmin && hasRole(held, 'admin') ? 'admin' : 'member'
  }

  return {
    scheme: 'Bearer',
    prefix: TENANT_TOKEN_PREFIX,
    async verify(token) {
      const claims = await jwt.verify(token)
      if (!claims || !(await isLive(claims))) return null
      const named = claims.scope.split(' ')
      const role = await roleOf(claims, named)
      if (!role) return null
      return {
        credentialId: claims.jti,
        orgId: claims.org_id,
        userId: isPersonalSubject(claims.sub) ? claims.sub : null,
        role,
        scopes: SCOPES.filter((scope: Scope) => named.includes(scope)),
        appId: claims.app_id,
        actorType: 'token',
        // A realtime socket opened with the token closes then (issue 41); `exp` is in seconds.
        expiresAt: new Date(claims.exp * 1000),
      }
    },
    forget(jti) {
      generation += 1
      live.delete(jti)
    },
  }
}
