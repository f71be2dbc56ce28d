/**
 * Tenant tokens (decision 0048): minted for the caller's organisation (optionally one app) with
 * some of the caller's scopes, listed, and revoked by `jti` before they expire. The token is
 * returned once, at minting; only its claims are kept (`tenant_tokens`), never the token. A token
 * minted with a credential is no wider, no longer-lived than it and dies with it (decision 0104).
 */
import { randomUUID } from 'node:crypto'
import { and, desc, eq, isNull } from 'drizzle-orm'
import { childCredential, type Creator } from '../../auth/child-credential'
import { credentialRef } from '../../auth/credential-ref'
import { revokeDescendants } from '../../auth/revoke-descendants'
import type { Db } from '../../db/client'
import { tenantTokens } from '../../db/schema'
import { withTenant, type Principal } from '../../db/tenant'
import { readPage } from '../../lists/list-kit'
import { isForeignKeyViolation } from '../../db/constraint-violation'
import { notFound } from '../../errors/app-error'
import { recordAudit } from '../../audit/record-audit'
import type { Scope } from '../../auth/scopes'
import type { TenantTokenClaims, TenantTokenJwt } from '../../auth/tenant-token-jwt'

/** A token's lifetime when none (or no valid one) is asked for, in seconds: one hour. */
export const DEFAULT_TOKEN_TTL_SECONDS = 3600
/** The longest lifetime a token may be minted with, in seconds: 24 hours (issue 23). */
export const MAX_TOKEN_TTL_SECONDS = 86_400

/** The minting caller, as the request's principal describes it. */
export type Minter = Creator

/** What to mint: an app (or null), a lifetime in seconds (null: the default) and the scopes. */
export interface TokenRequest {
  appId: string | null
  ttlSeconds: number | null
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
 * is a 404 `app_not_found`. A minter that is itself a credential passes childCredential: scopes
 * beyond its own are a 403 `insufficient_scope`, a lifetime asked past its end a 403
 * `credential_outlives_parent` (the default lifetime is shortened to its end instead), and the
 * token records it and is revoked with it. Returns the token (shown once) with its claims.
 */
export async function mintTenantToken(
  deps: { db: Db; jwt: TenantTokenJwt },
  minter: Minter,
  request: TokenRequest,
): Promise<{ token: string; claims: TenantTokenClaims }> {
  const iat = Math.floor(Date.now() / 1000)
  const asked = iat + (request.ttlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS)
  try {
    const claims = await withTenant(deps.db, minter, async (tx) => {
      const child = await childCredential(tx, minter, {
        scopes: request.scopes,
        appId: request.appId,
        expiresAt: new Date(asked * 1000),
        expiryAsked: request.ttlSeconds !== null,
      })
      const minted: TenantTokenClaims = {
        sub: minter.userId ?? `${minter.actorType}:${minter.credentialId ?? 'unknown'}`,
        org_id: minter.orgId,
        app_id: child.appId,
        scope: request.scopes.join(' '),
        iat,
        // A JWT's exp is in whole seconds: rounded down, never past the minter's end.
        exp: child.expiresAt ? Math.floor(child.expiresAt.getTime() / 1000) : asked,
        jti: randomUUID(),
      }
      await tx.insert(tenantTokens).values({
        jti: minted.jti,
        orgId: minted.org_id,
        appId: minted.app_id,
        scope: minted.scope,
        createdBy: minter.userId,
        createdAt: new Date(iat * 1000),
        expiresAt: new Date(minted.exp * 1000),
        lineage: child.lineage,
      })
      await recordAudit(
        tx,
        minter,
        'token.mint',
        { type: 'token', id: minted.jti },
        {
          appId: minted.app_id,
          scope: minted.scope,
          expiresAt: new Date(minted.exp * 1000).toISOString(),
          createdWith: child.lineage.at(-1) ?? null,
        },
      )
      return minted
    })
    return { token: await deps.jwt.sign(claims), claims }
  } catch (error) {
    if (isForeignKeyViolation(error, 'tenant_tokens_app_fk')) throw notFound('App')
    throw error
  }
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
 * Revokes token `jti` (idempotent: a revoked token keeps its first revocation time) and every
 * credential created through it (revokeDescendants), and calls `onRevoked(jti)` once it is
 * committed, so the verifier's cache (and the lineage check, for its descendants) forgets it. A
 * token the principal cannot see is a 404 `token_not_found`.
 */
export async function revokeTenantToken(
  db: Db,
  principal: Principal,
  jti: string,
  onRevoked: (jti: string) => void,
): Promise<void> {
  await withTenant(db, principal, async (tx) => {
    const at = new Date()
    const [revoked] = await tx
      .update(tenantTokens)
      .set({ revokedAt: at })
      .where(and(eq(tenantTokens.jti, jti), isNull(tenantTokens.revokedAt)))
      .returning({ jti: tenantTokens.jti })
    if (revoked) {
      await recordAudit(tx, principal, 'token.revoke', { type: 'token', id: jti })
      await revokeDescendants(
        tx,
        principal,
        credentialRef({ actorType: 'token', credentialId: jti })!,
        at,
      )
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
