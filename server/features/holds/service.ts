/**
 * Legal holds of an organisation (issue 45, decision 0147): place one on an app, a document, a
 * recording or a member's data, list them, release one. The database refuses every deletion a
 * standing hold reaches (migration 0060's legal_hold_guard, the rule of server/holds/); this
 * service only writes the holds. Placing and releasing are audited with the hold's target, never
 * its reason (the audit log is read more widely than the holds are).
 */
import { and, desc, eq, isNull } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { apps, documents, legalHolds, member, recordings } from '../../db/schema'
import { withTenant, type Principal, type Tx } from '../../db/tenant'
import { readPage } from '../../lists/list-kit'
import { AppError } from '../../errors/app-error'
import { recordAudit } from '../../audit/record-audit'
import type { LegalHoldTargetKind } from '../../holds/legal-hold'

type LegalHoldRow = typeof legalHolds.$inferSelect

/** A hold as the API shows it. */
const toLegalHold = (row: LegalHoldRow) => ({
  id: row.id,
  targetKind: row.targetKind as LegalHoldTargetKind,
  targetId: row.targetId,
  reason: row.reason,
  createdBy: row.createdBy,
  createdAt: row.createdAt.toISOString(),
  releasedBy: row.releasedBy,
  releasedAt: row.releasedAt?.toISOString() ?? null,
})

/**
 * A page of the organisation's holds, newest first, and their number (list kit, decision 0123);
 * released ones too unless `inForce`.
 */
export async function listLegalHolds(
  db: Db,
  principal: Principal,
  query: { limit: number; offset: number; inForce: boolean },
) {
  const { rows, total } = await readPage(db, principal, legalHolds, {
    where: query.inForce ? isNull(legalHolds.releasedAt) : undefined,
    orderBy: [desc(legalHolds.createdAt), desc(legalHolds.id)],
    limit: query.limit,
    offset: query.offset,
  })
  return { items: rows.map(toLegalHold), total }
}

/** What a new hold names (routes.ts validates the shapes). */
export interface NewLegalHold {
  targetKind: LegalHoldTargetKind
  /** The app's, document's or recording's id (a UUID); for a member, their user id. */
  targetId: string
  reason: string
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Whether user `userId` is a member of `orgId` (the auth tables: no RLS, no tenant role). */
async function isMember(db: Db, orgId: string, userId: string) {
  const [row] = await db
    .select({ id: member.id })
    .from(member)
    .where(and(eq(member.organizationId, orgId), eq(member.userId, userId)))
  return row !== undefined
}

/** Whether the organisation has the app, document or recording (`tx`: RLS confines it). */
async function itemExists(tx: Tx, kind: Exclude<LegalHoldTargetKind, 'member'>, id: string) {
  if (!UUID.test(id)) return false
  const table = { app: apps, document: documents, recording: recordings }[kind]
  const [row] = await tx.select({ id: table.id }).from(table).where(eq(table.id, id))
  return row !== undefined
}

/**
 * Places a hold; answers it (201). 404 `legal_hold_not_found` when the organisation has no such
 * app, document, recording or member (another organisation's is not told apart from none).
 */
export async function placeLegalHold(db: Db, principal: Principal, input: NewLegalHold) {
  const notFound = () =>
    new AppError(
      'legal_hold_not_found',
      `The organisation has no ${input.targetKind} with this id to hold`,
    )
  if (input.targetKind === 'member' && !(await isMember(db, principal.orgId, input.targetId)))
    throw notFound()
  return withTenant(db, principal, async (tx) => {
    if (input.targetKind !== 'member' && !(await itemExists(tx, input.targetKind, input.targetId)))
      throw notFound()
    const [row] = await tx
      .insert(legalHolds)
      .values({
        orgId: principal.orgId,
        targetKind: input.targetKind,
        targetId: input.targetId,
        reason: input.reason,
        createdBy: principal.userId,
      })
      .returning()
    if (!row) throw new Error('insert returned no row')
    await recordAudit(
      tx,
      principal,
      'legal_hold.place',
      { type: 'legal_hold', id: row.id },
      { targetKind: row.targetKind, targetId: row.targetId },
    )
    return toLegalHold(row)
  })
}

/**
 * Releases hold `holdId` (its deletions are allowed again, unless another hold reaches them);
 * answers it. Releasing a released hold changes nothing and answers it as it is. 404
 * `legal_hold_not_found` when the organisation has no such hold.
 */
export async function releaseLegalHold(db: Db, principal: Principal, holdId: string) {
  return withTenant(db, principal, async (tx) => {
    const [found] = await tx
      .select()
      .from(legalHolds)
      .where(eq(legalHolds.id, holdId))
      .for('update')
    if (!found) throw new AppError('legal_hold_not_found', 'No such legal hold')
    if (found.releasedAt) return toLegalHold(found)
    const [row] = await tx
      .update(legalHolds)
      .set({ releasedAt: new Date(), releasedBy: principal.userId })
      .where(eq(legalHolds.id, holdId))
      .returning()
    if (!row) throw new Error('update returned no row')
    await recordAudit(
      tx,
      principal,
      'legal_hold.release',
      { type: 'legal_hold', id: row.id },
      { targetKind: row.targetKind, targetId: row.targetId },
    )
    return toLegalHold(row)
  })
}
