/**
 * Tenant tokens (decision 0048): minted for the caller's organisation (optionally one app) with
 * some of the caller's scopes, listed, and revoked by `jti` before they expire. The token is
 * returned once, at minting; only its claims are kept (`tenant_tokens`), never the token.
 */
import { randomUUID } from 'node:crypto'
import { and, desc, eq, isNull } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { tenantTokens } from '../../db/schema'
import { withTenant, type Principal } from '../../db/tenant'
import { readPage } from '../../db/read-page'
import { isForeignKeyViolation } from '../../db/constraint-violation'
import { AppError, notFound } from '../../errors/app-error'
import { recordAudit } from '../../audit/record-audit'
import type { Scope } from '../../auth/scopes'
import type { TenantTokenClaims, TenantTokenJwt } from '../../auth/tenant-token-jwt'

/** A token's lifetime when none (or no valid one) is asked for, in seconds: one hour. */
export const DEFAULT_TOKEN_TTL_SECONDS = 3600
/** The longest lifetime a token may be minted with, in seconds: 24 hours (issue 23). */
export const MAX_TOKEN_TTL_SECONDS = 86_400

/** The minting caller, as the request's principal describes it. */
export type Minter = Principal & { scopes: readonly Scope[]; appId: string | null }

/** What to mint: an app (or null), a lifetime in seconds and the scopes. */
export interface TokenRequest {
  appId: string | null
  ttlSeconds: number
  scopes: readonly Scope[]
}

type TokenRow = typeof tenantTokens.$inferSelect

/** A token as listed: its claims and state, never the token. */
const toTokenInfo = (row: TokenRow) => ({
  jti: row.jti,
  appId: row.appId,
  scope: row.scope,
  createdBy: row.createdBy,
  createdAt: row.createdAt.toISOString(),
  expiresAt: row.expiresAt.toISOString(),
  revokedAt: row.revokedAt?.toISOString() ?? null,
})

/**
 * Mints a token for `minter`'s organisation. An app-scoped minter mints only for its own app (the
 * default when `request.appId` is null); another app, or an app the organisation does not have,
 * is a 404 `app_not_found`. Scopes beyond the minter's are a 403 `insufficient_scope`. Returns
 * the token (shown once) with its claims.
 */
export async function mintTenantToken(
  deps: { db: Db; jwt: TenantTokenJwt },
  minter: Minter,
  request: TokenRequest,
): Promise<{ token: string; claims: TenantTokenClaims }> {
  const missing = request.scopes.filter((scope) => !minter.scopes.includes(scope))
  if (missing.length > 0) {
    throw new AppError(
      'insufficient_scope',
      `A token cannot hold scopes its minter lacks: ${missing.join(', ')}`,
    )
  }
  const appId = request.appId ?? minter.appId
  if (minter.appId !== null && appId !== minter.appId) throw notFound('App')
  const iat = Math.floor(Date.now() / 1000)
  const claims: TenantTokenClaims = {
    sub: minter.userId ?? `${minter.actorType}:${minter.credentialId ?? 'unknown'}`,
    org_id: minter.orgId,
    app_id: appId,
    scope: request.scopes.join(' '),
    iat,
    exp: iat + request.ttlSeconds,
    jti: randomUUID(),
  }
  try {
    await withTenant(deps.db, minter, async (tx) => {
      await tx.insert(tenantTokens).values({
        jti: claims.jti,
        orgId: claims.org_id,
        appId,
        scope: claims.scope,
        createdBy: minter.userId,
        createdAt: new Date(iat * 1000),
        expiresAt: new Date(claims.exp * 1000),
      })
      await recordAudit(
        tx,
        minter,
        'token.mint',
        { type: 'token', id: claims.jti },
        { appId, scope: claims.scope, expiresAt: new Date(claims.exp * 1000).toISOString() },
      )
    })
  } catch (error) {
    if (isForeignKeyViolation(error, 'tenant_tokens_app_fk')) throw notFound('App')
    throw error
  }
  return { token: await deps.jwt.sign(claims), claims }
}

/** A page of the organisation's tokens (those of the caller's app, if it has one), newest first. */
export async function listTenantTokens(
  db: Db,
  principal: Principal,
  page: { limit: number; offset: number },
) {
  const { rows, total } = await readPage(db, principal, tenantTokens, {
    orderBy: [desc(tenantTokens.createdAt), desc(tenantTokens.jti)],
    ...page,
  })
  return { items: rows.map(toTokenInfo), total }
}

/**
 * Revokes token `jti` (idempotent: a revoked token keeps its first revocation time) and calls
 * `onRevoked(jti)` once it is committed, so the verifier's cache forgets it. A token the
 * principal cannot see is a 404 `token_not_found`.
 */
export async function revokeTenantToken(
  db: Db,
  principal: Principal,
  jti: string,
  onRevoked: (jti: string) => void,
): Promise<void> {
  await withTenant(db, principal, async (tx) => {
    const [revoked] = await tx
      .update(tenantTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(tenantTokens.jti, jti), isNull(tenantTokens.revokedAt)))
      .returning({ jti: tenantTokens.jti })
    if (revoked) {
      await recordAudit(tx, principal, 'token.revoke', { type: 'token', id: jti })
      return
    }
    const [known] = await tx
      .select({ jti: tenantTokens.jti })
      .from(tenantTokens)
      .where(eq(tenantTokens.jti, jti))
    if (!known) throw notFound('Token')
  })
  onRevoked(jti)
}
