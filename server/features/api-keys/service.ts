/**
 * API keys of an organisation (decision 0047), read and written through tenant transactions:
 * list, create (the secret is answered once, here, and stored only as its digest) and revoke.
 * Creating and revoking are audited with the key's id, name and prefix, never its secret. A key
 * created with a credential is no wider, no longer-lived than it and dies with it (decision 0104).
 */
import { desc, eq } from 'drizzle-orm'
import { childCredential, type Creator } from '../../auth/child-credential'
import { credentialRef } from '../../auth/credential-ref'
import { revokeDescendants } from '../../auth/revoke-descendants'
import type { Scope } from '../../auth/scopes'
import type { Db } from '../../db/client'
import { isForeignKeyViolation } from '../../db/constraint-violation'
import { apiKeys } from '../../db/schema'
import { withTenant, withTenantReads, type Principal } from '../../db/tenant'
import { AppError } from '../../errors/app-error'
import { recordAudit } from '../../audit/record-audit'
import { recordEvent } from '../../events/record-event'
import { newApiKey } from './api-key-secret'

type ApiKeyRow = typeof apiKeys.$inferSelect

/** A key as the API shows it: everything but its digest. */
const toApiKey = (row: ApiKeyRow) => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  scopes: row.scopes,
  appId: row.appId,
  createdBy: row.createdBy,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  expiresAt: row.expiresAt?.toISOString() ?? null,
  revokedAt: row.revokedAt?.toISOString() ?? null,
})

/** The organisation's keys, newest first, revoked ones included (they stay for the audit log). */
export async function listApiKeys(db: Db, principal: Principal) {
  const [rows] = await withTenantReads(db, principal, (tx) => [
    tx.select().from(apiKeys).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id)),
  ])
  return { items: rows.map(toApiKey) }
}

/** What a new key is made of (routes.ts validates it). */
export interface NewApiKey {
  name: string
  scopes: Scope[]
  /** When it stops working as asked; null: never, or the creating credential's end if it has one. */
  expiresAt: Date | null
  appId: string | null
}

/**
 * Creates a key acting for the principal's user; answers it with its secret `key`, the only
 * time the secret leaves the server. 403 `forbidden` for a principal without a user (a key
 * must have someone whose role it is capped at); 404 `app_not_found` for an app that is not the
 * organisation's, or not the one an app-bound principal is bound to. Created with a credential
 * (childCredential): 403 `insufficient_scope` for a scope it lacks, 403
 * `credential_outlives_parent` for an expiry past its own (none asked: its own), and the key is
 * revoked with it.
 */
export async function createApiKey(db: Db, principal: Creator, input: NewApiKey) {
  const userId = principal.userId
  if (userId === null) throw new AppError('forbidden', 'Only a person can own an API key')
  const { key, prefix, hash } = newApiKey()
  try {
    const row = await withTenant(db, principal, async (tx) => {
      const { appId, expiresAt, lineage } = await childCredential(tx, principal, {
        scopes: input.scopes,
        appId: input.appId,
        expiresAt: input.expiresAt,
        expiryAsked: input.expiresAt !== null,
      })
      const [inserted] = await tx
        .insert(apiKeys)
        .values({
          orgId: principal.orgId,
          appId,
          name: input.name,
          prefix,
          keyHash: hash,
          scopes: input.scopes,
          createdBy: userId,
          expiresAt,
          lineage,
        })
        .returning()
      if (!inserted) throw new Error('insert returned no row')
      await recordAudit(
        tx,
        principal,
        'api_key.create',
        { type: 'api_key', id: inserted.id },
        {
          name: inserted.name,
          prefix,
          scopes: inserted.scopes,
          appId: inserted.appId,
          expiresAt: inserted.expiresAt?.toISOString() ?? null,
          createdWith: lineage.at(-1) ?? null,
        },
      )
      await recordEvent(
        tx,
        principal,
        'key.created',
        { keyId: inserted.id, name: inserted.name },
        inserted.appId,
      )
      return inserted
    })
    return { ...toApiKey(row), key }
  } catch (error) {
    if (isForeignKeyViolation(error, 'api_keys_app_fk')) throw appNotFound()
    throw error
  }
}

const appNotFound = () => new AppError('app_not_found', 'No such app in this organisation')

/**
 * Revokes the key `keyId` (again: nothing changes) and every credential created through it
 * (revokeDescendants), and answers its digest, which the caller must make the verifier forget
 * (and the lineage check, for its descendants) once this has committed. 404 `api_key_not_found`
 * when the organisation has no such key.
 */
export async function revokeApiKey(db: Db, principal: Principal, keyId: string): Promise<string> {
  return withTenant(db, principal, async (tx) => {
    const [row] = await tx
      .select({
        keyHash: apiKeys.keyHash,
        revokedAt: apiKeys.revokedAt,
        name: apiKeys.name,
        appId: apiKeys.appId,
      })
      .from(apiKeys)
      .where(eq(apiKeys.id, keyId))
      .for('update')
    if (!row) throw new AppError('api_key_not_found', 'No such API key in this organisation')
    if (!row.revokedAt) {
      const at = new Date()
      await tx.update(apiKeys).set({ revokedAt: at }).where(eq(apiKeys.id, keyId))
      await revokeDescendants(
        tx,
        principal,
        credentialRef({ actorType: 'api_key', credentialId: keyId })!,
        at,
      )
      await recordAudit(
        tx,
        principal,
        'api_key.revoke',
        { type: 'api_key', id: keyId },
        {
          name: row.name,
        },
      )
      await recordEvent(tx, principal, 'key.revoked', { keyId, name: row.name }, row.appId)
    }
    return row.keyHash
  })
}
