/**
 * Audit trail: every write to tenant data records who did what to which object, inside the same
 * tenant transaction as the write (so a rolled-back write leaves no audit row either).
 */
import { auditLogs } from '../db/schema'
import type { Principal, Tx } from '../db/tenant'

/**
 * Appends one audit row for `principal` in transaction `tx`. `action` is e.g. 'document.create'.
 * The actor is the principal's kind and user, and its credential when it has one; a principal
 * without a user that claims to be one (a job nobody asked for) is recorded as `system`, so
 * every `user` row names its user. `meta` is small JSON (ids, counts, field names): never
 * document text, question text, tokens or secrets.
 */
export async function recordAudit(
  tx: Tx,
  principal: Principal,
  action: string,
  target: { type: string; id: string | null },
  meta: Record<string, unknown> = {},
): Promise<void> {
  const actorType =
    principal.actorType === 'user' && principal.userId === null ? 'system' : principal.actorType
  await tx.insert(auditLogs).values({
    orgId: principal.orgId,
    actorType,
    actorId: principal.userId,
    credentialId: principal.credentialId ?? null,
    action,
    targetType: target.type,
    targetId: target.id,
    meta,
  })
}
