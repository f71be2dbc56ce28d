/**
 * Legal hold (issue 45, decision 0147): what every feature may import to know whether data is
 * held and how a refusal reads. The database enforces it (migration 0060_legal_holds: a BEFORE
 * DELETE trigger on every table a hold reaches raises SQLSTATE `LH409`); this module holds the
 * same rule as a pure function for code that decides before it deletes (a retention job), the
 * detector of the trigger's error and the one wording of the 409 problem `legal_hold`.
 */

/** What a hold may name (`legal_holds.target_kind`). A member's hold names their user id. */
export const LEGAL_HOLD_TARGET_KINDS = ['app', 'document', 'recording', 'member'] as const
export type LegalHoldTargetKind = (typeof LEGAL_HOLD_TARGET_KINDS)[number]

/** The longest `reason` a hold may carry, in characters (the table's check constraint). */
export const LEGAL_HOLD_REASON_MAX = 500

/** The SQLSTATE legal_hold_guard raises (a class of our own: PostgreSQL uses none starting "LH"). */
export const LEGAL_HOLD_SQLSTATE = 'LH409'

/**
 * The `detail` of every 409 `legal_hold`: it says that a hold stands, never which one nor its
 * reason (a member who may delete a document may not know why the firm keeps it).
 */
export const LEGAL_HOLD_DETAIL =
  'This item is under a legal hold: it cannot be deleted until an owner or admin releases the hold.'

/** Whether `error` (or its `cause`, as Drizzle wraps it) is legal_hold_guard's refusal. */
export function isLegalHoldViolation(error: unknown): boolean {
  const candidates = [error, (error as { cause?: unknown } | null)?.cause]
  return candidates.some((e) => (e as { code?: unknown } | null)?.code === LEGAL_HOLD_SQLSTATE)
}

/** A hold in force (released ones are not passed). */
export interface HoldInForce {
  targetKind: LegalHoldTargetKind
  targetId: string
}

/**
 * A piece of data that may be deleted: what it is, its id, and what contains it (its app, its
 * creator's user id, and for a transcript the recording it transcribes). Storage objects and
 * conversations are reached through their app or creator only.
 */
export interface HoldableItem {
  kind: 'app' | 'document' | 'recording' | 'conversation' | 'storage_object' | 'member'
  id: string
  appId?: string | null
  createdBy?: string | null
  transcriptOf?: string | null
}

/**
 * Whether `hold` reaches `item`: a hold on the item itself, on its app, on its creator (a
 * member's data), or, for a transcript, on its recording. A member item's id is the user id.
 * The same rule as legal_hold_guard in migration 0060 (kept in step by the parity test of server/features/holds/legal-holds.test.ts).
 */
export function holdReaches(hold: HoldInForce, item: HoldableItem): boolean {
  if (item.kind === 'member' || item.kind === 'app')
    return hold.targetKind === item.kind && hold.targetId === item.id
  return (
    (hold.targetKind === item.kind && hold.targetId === item.id) ||
    (hold.targetKind === 'app' && hold.targetId === item.appId) ||
    (hold.targetKind === 'member' && hold.targetId === item.createdBy) ||
    (item.kind === 'document' &&
      hold.targetKind === 'recording' &&
      hold.targetId === item.transcriptOf)
  )
}

/** What a retention policy says of an item: still kept (or kept forever), or due. */
export type RetentionVerdict = 'retain' | 'due'

/** What becomes of an item, and which rule decided it. */
export type Fate =
  | { fate: 'keep'; because: 'legal_hold'; holds: HoldInForce[] }
  | { fate: 'keep'; because: 'retention' }
  | { fate: 'delete'; because: 'retention' | 'request' }

/**
 * "Hold beats retain beats delete" (issue 45): a hold in force reaching `item` keeps it whatever
 * else is said; otherwise a retention verdict of `retain` keeps it; otherwise it goes, because
 * retention found it due or, with no verdict (`null`: no policy, a person's delete), because
 * it was asked for.
 */
export function decideFate(
  item: HoldableItem,
  holds: readonly HoldInForce[],
  retention: RetentionVerdict | null,
): Fate {
  const reaching = holds.filter((hold) => holdReaches(hold, item))
  if (reaching.length > 0) return { fate: 'keep', because: 'legal_hold', holds: reaching }
  if (retention === 'retain') return { fate: 'keep', because: 'retention' }
  return { fate: 'delete', because: retention === 'due' ? 'retention' : 'request' }
}
