/**
 * Audit trail: every write to tenant data records who did what to which object, inside the same
 * tenant transaction as the write (so a rolled-back write leaves no audit row either).
 */
import { auditLogs } from '../db/schema'
import type { Principal, Tx } from '../db/tenant'

/** Appends one audit row for `principal` in transaction `tx`. `action` is e.g. 'document.create'. */
export async function recordAudit(
  tx: Tx,
  principal: Principal,
  action: string,
  target: { type: string; id: string | null },
  meta: Record<string, unknown> = {},
): Promise<void> {
  await tx.insert(auditLogs).values({
    orgId: principal.orgId,
    actorType: principal.actorType,
    actorId: principal.userId,
    action,
    targetType: target.type,
    targetId: target.id,
    meta,
  })
}
