/**
 * The rule every credential creation passes (issue 41, decision 0104): a credential can only
 * create credentials narrower in scope, no wider in app and no longer-lived than itself, and each
 * records its lineage (the credentials it was made with) so that it dies with any of them
 * (lineage-check.ts at each request, revokeDescendants at revocation). A signed-in person's
 * session is the root: it holds every scope, no app and no expiry, and its credentials have an
 * empty lineage. Used by API-key creation and tenant-token minting alike.
 */
import { eq } from 'drizzle-orm'
import { apiKeys, tenantTokens } from '../db/schema'
import type { Principal, Tx } from '../db/tenant'
import { AppError } from '../errors/app-error'
import { credentialRef } from './credential-ref'
import type { Scope } from './scopes'

/**
 * The longest lineage a credential may be created with: a program rarely needs more than a key
 * that mints tokens, and each link is read at every uncached request of its descendants.
 */
export const MAX_LINEAGE = 8

/** Who creates a credential: the request's principal. */
export type Creator = Principal & {
  credentialId?: string | null
  scopes: readonly Scope[]
  appId: string | null
}

/** What the new credential asks for. */
export interface ChildRequest {
  scopes: readonly Scope[]
  /** The app asked for; null: the creator's own (or the whole organisation). */
  appId: string | null
  /** When it ends as asked (or the feature's default); null: never. */
  expiresAt: Date | null
  /** Whether the caller named the expiry (a default is shortened to the creator's instead). */
  expiryAsked: boolean
}

/** What the new credential gets. */
export interface ChildCredential {
  appId: string | null
  /** Its end: as asked, or the creator's own end when the default would outlive it. */
  expiresAt: Date | null
  /** Its lineage: the creator's lineage and the creator (empty for a session). */
  lineage: string[]
}

/** The creator's own row: its end, state and lineage (null: none, for a session). */
async function creatorRow(tx: Tx, creator: Creator) {
  if (creator.actorType === 'user' && !creator.credentialId) return null
  const ref = credentialRef(creator)
  if (!ref) {
    throw new AppError(
      'forbidden',
      'Only a signed-in person, an API key or a tenant token can create credentials',
    )
  }
  const id = creator.credentialId!
  const [row] =
    creator.actorType === 'api_key'
      ? await tx
          .select({
            expiresAt: apiKeys.expiresAt,
            revokedAt: apiKeys.revokedAt,
            lineage: apiKeys.lineage,
          })
          .from(apiKeys)
          .where(eq(apiKeys.id, id))
      : await tx
          .select({
            expiresAt: tenantTokens.expiresAt,
            revokedAt: tenantTokens.revokedAt,
            lineage: tenantTokens.lineage,
          })
          .from(tenantTokens)
          .where(eq(tenantTokens.jti, id))
  if (!row || row.revokedAt || (row.expiresAt && row.expiresAt.getTime() <= Date.now())) {
    throw new AppError('unauthenticated', 'The credential creating this one is no longer valid', {
      'www-authenticate': 'Bearer error="invalid_token"',
    })
  }
  return { ref, ...row }
}

/**
 * Checks `request` against `creator` inside the creation's tenant transaction `tx` and answers
 * what the new credential gets. Throws AppError 403 `insufficient_scope` for a scope the creator
 * lacks, 404 `app_not_found` for another app than an app-bound creator's, 403
 * `credential_outlives_parent` for an expiry asked past the creator's, 403 `forbidden` for a
 * lineage past MAX_LINEAGE or a creator of a kind that records none, 401 `unauthenticated` when
 * the creator's own row is gone, revoked or expired (a revocation that raced the request).
 */
export async function childCredential(
  tx: Tx,
  creator: Creator,
  request: ChildRequest,
): Promise<ChildCredential> {
  const missing = request.scopes.filter((scope) => !creator.scopes.includes(scope))
  if (missing.length > 0) {
    throw new AppError(
      'insufficient_scope',
      `A credential can only create credentials with scopes it has; this one lacks ${missing.join(', ')}`,
    )
  }
  const appId = request.appId ?? creator.appId
  if (creator.appId !== null && appId !== creator.appId) {
    // As for any row of another app: out of an app-bound credential's sight (decision 0048).
    throw new AppError('app_not_found', 'No such app in this organisation')
  }
  const parent = await creatorRow(tx, creator)
  if (!parent) return { appId, expiresAt: request.expiresAt, lineage: [] }
  if (parent.lineage.length >= MAX_LINEAGE) {
    throw new AppError(
      'forbidden',
      `Credentials can be created from credentials at most ${MAX_LINEAGE} deep; sign in to create this one`,
    )
  }
  const lineage = [...parent.lineage, parent.ref]
  const end = parent.expiresAt
  const outlives =
    end !== null && (request.expiresAt === null || request.expiresAt.getTime() > end.getTime())
  if (!outlives) return { appId, expiresAt: request.expiresAt, lineage }
  if (request.expiryAsked) {
    throw new AppError(
      'credential_outlives_parent',
      `A credential cannot outlive the one creating it, which expires at ${end.toISOString()}: ask for an expiry no later`,
    )
  }
  return { appId, expiresAt: end, lineage }
}
