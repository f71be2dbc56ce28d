/**
 * The cascade of a revocation (decision 0104): revoking an API key or tenant token revokes every
 * credential created through it, however indirectly (those whose `lineage` holds it), in the
 * same transaction, so the Security screen lists them as revoked and their realtime sockets close
 * (the tables' revocation triggers, migration 0044). The request-time lineage check
 * (lineage-check.ts) refuses them even where this cascade has not reached (a child created while
 * its parent was being revoked, another process's cache).
 */
import { and, arrayContains, isNull } from 'drizzle-orm'
import { recordAudit } from '../audit/record-audit'
import { apiKeys, tenantTokens } from '../db/schema'
import type { Principal, Tx } from '../db/tenant'
import { recordEvent } from '../events/record-event'

/**
 * Revokes, at `at`, the unrevoked API keys and tenant tokens whose lineage holds `ref` (the
 * revoked credential, `api_key:<id>` or `token:<jti>`), inside the revocation's tenant
 * transaction `tx`; audits each (`api_key.revoke`, `token.revoke`, with the revoked ancestor as
 * `cause`) and writes a `key.revoked` event per key, as a revocation by hand does. Answers how
 * many were revoked.
 */
export async function revokeDescendants(
  tx: Tx,
  principal: Principal,
  ref: string,
  at: Date,
): Promise<number> {
  const keys = await tx
    .update(apiKeys)
    .set({ revokedAt: at })
    .where(and(arrayContains(apiKeys.lineage, [ref]), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id, name: apiKeys.name, appId: apiKeys.appId })
  for (const key of keys) {
    await recordAudit(
      tx,
      principal,
      'api_key.revoke',
      { type: 'api_key', id: key.id },
      { name: key.name, cause: ref },
    )
    await recordEvent(tx, principal, 'key.revoked', { keyId: key.id, name: key.name }, key.appId)
  }
  const tokens = await tx
    .update(tenantTokens)
    .set({ revokedAt: at })
    .where(and(arrayContains(tenantTokens.lineage, [ref]), isNull(tenantTokens.revokedAt)))
    .returning({ jti: tenantTokens.jti })
  for (const token of tokens) {
    await recordAudit(
      tx,
      principal,
      'token.revoke',
      { type: 'token', id: token.jti },
      { cause: ref },
    )
  }
  return keys.length + tokens.length
}
