/**
 * The handler of 'retention' jobs (contract: server/jobs/contracts/retention-job-contract.ts,
 * issue 45, decision 0148): deletes what the organisation's retention policies say is due.
 *
 * For each kind (documents, recordings, conversations, stored objects) it reads, in one short
 * tenant transaction, the next BATCH_SIZE due items by id after a cursor — an item is due when
 * its last change (LAST_CHANGE below) is older than the days of the policy that governs it, its
 * app's policy beating the organisation's — and the legal holds standing now; decides each with
 * `decideFate` (hold beats retain beats delete); deletes each one it may in a savepoint, so a hold
 * placed since (legal_hold_guard's LH409) rolls back that item alone, which is counted as held and
 * skipped; writes for each deleted item an audit entry `retention.delete` naming the policy and a
 * row of the deletion report; commits; and only then removes the deleted items' files through the
 * paths a person's delete uses (removeDocument and removeDocumentFiles, removeRecording and
 * removeRecordingFiles of server/documents/, the blob store's delete for a stored object). A
 * crash before a commit deletes nothing of that batch; a crash between a commit and its files
 * leaves files without a row, which the start-up orphan walk removes (server/blob/
 * orphan-files.ts: documents, recordings and buckets are among its kinds). Audit entries go
 * last, through the one sanctioned function (purge_audit_entries, migration 0062), a batch at a
 * time. A cancel stops it between two batches; progress is reported per kind and after each
 * batch.
 */
import { eq, isNull, sql } from 'drizzle-orm'
import type { JobHandlerOf } from '../../jobs/define-job-contract'
import type { retentionJobContract } from '../../jobs/contracts/retention-job-contract'
import type { Db } from '../../db/client'
import type { BlobStore } from '../../blob/blob-store'
import { noteFilesLeftBehind } from '../../blob/orphan-walk'
import { withTenant, type Principal, type Tx } from '../../db/tenant'
import {
  conversations,
  legalHolds,
  retentionDeletions,
  retentionPolicies,
  storageObjects,
} from '../../db/schema'
import {
  decideFate,
  isLegalHoldViolation,
  type HoldableItem,
  type HoldInForce,
  type LegalHoldTargetKind,
} from '../../holds/legal-hold'
import { governingPolicy, retentionVerdict, type RetentionKind } from '../../holds/retention-rule'
import {
  removeDocument,
  removeDocumentFiles,
  type RemovedDocument,
} from '../../documents/document-writes'
import {
  removeRecording,
  removeRecordingFiles,
  type RemovedRecording,
} from '../../documents/recording-writes'
import { recordAudit } from '../../audit/record-audit'
import { recordEvent } from '../../events/record-event'

/** Items deleted in one transaction (short, so locks and a crash's loss stay small). */
export const BATCH_SIZE = 50

/** Audit entries one call of purge_audit_entries deletes at most (its own cap is 1,000). */
export const AUDIT_BATCH_SIZE = 500

/** The kinds whose items are rows with files, in the order a run takes them. */
const ITEM_KINDS = ['documents', 'recordings', 'conversations', 'storage_objects'] as const
type ItemKind = (typeof ITEM_KINDS)[number]

/** What legal_hold_guard and decideFate call an item of each kind. */
const HOLDABLE_KIND: Record<ItemKind, HoldableItem['kind']> = {
  documents: 'document',
  recordings: 'recording',
  conversations: 'conversation',
  storage_objects: 'storage_object',
}

/**
 * Each kind's candidates with their app, creator, name and last change, under the caller's RLS:
 * - a document: the later of its creation and its newest analysis (documents have no updated_at;
 *   a new analysis is work on it, a rename is not); a recording's transcript is not a document
 *   here: it goes with its recording;
 * - a recording: its creation (its transcript is written once, by its transcription);
 * - a conversation: its newest message, else its start;
 * - a stored object: its last write (`updated_at`: an overwrite is a change); objects have no app.
 */
const LAST_CHANGE: Record<ItemKind, ReturnType<typeof sql>> = {
  documents: sql`
    SELECT d.id, d.app_id, d.created_by, d.title, NULL::uuid AS transcript_of,
           GREATEST(d.created_at, (SELECT max(a.created_at) FROM analyses a WHERE a.document_id = d.id)) AS last_changed
    FROM documents d
    WHERE NOT EXISTS (SELECT FROM recordings r WHERE r.document_id = d.id)`,
  recordings: sql`
    SELECT r.id, r.app_id, r.created_by, r.title, NULL::uuid AS transcript_of, r.created_at AS last_changed
    FROM recordings r`,
  conversations: sql`
    SELECT c.id, c.app_id, c.created_by, c.title, NULL::uuid AS transcript_of,
           GREATEST(c.started_at, (SELECT max(m.created_at) FROM messages m WHERE m.conversation_id = c.id)) AS last_changed
    FROM conversations c`,
  storage_objects: sql`
    SELECT o.id, NULL::uuid AS app_id, o.created_by, o.name AS title, NULL::uuid AS transcript_of, o.updated_at AS last_changed
    FROM storage_objects o`,
}

/** A due item as the batch query reads it. */
interface DueItem {
  id: string
  appId: string | null
  createdBy: string | null
  title: string | null
  lastChanged: Date
}

type Row = Record<string, unknown>
const rowsOf = (result: unknown): Row[] =>
  Array.isArray(result) ? (result as Row[]) : ((result as { rows: Row[] }).rows ?? [])

/**
 * The next `limit` due items of `kind` with an id after `cursor`, by id: those whose governing
 * policy (its app's, else the organisation's: the LATERAL picks the app's first) keeps for a
 * number of days and whose last change is older than that. The caller decides each again by
 * governingPolicy and retentionVerdict (server/holds/retention-rule.ts).
 */
async function dueItems(
  tx: Tx,
  kind: ItemKind,
  cursor: string | null,
  limit: number,
): Promise<DueItem[]> {
  const result = await tx.execute(sql`
    SELECT x.id::text AS id, x.app_id::text AS app_id, x.created_by, x.title, x.last_changed
    FROM (${LAST_CHANGE[kind]}) x
    JOIN LATERAL (
      SELECT rp.keep_days FROM retention_policies rp
      WHERE rp.kind = ${kind} AND (rp.app_id = x.app_id OR rp.app_id IS NULL)
      ORDER BY rp.app_id NULLS LAST
      LIMIT 1
    ) p ON true
    WHERE p.keep_days IS NOT NULL
      AND x.last_changed < now() - make_interval(days => p.keep_days)
      ${cursor ? sql`AND x.id > ${cursor}::uuid` : sql``}
    ORDER BY x.id
    LIMIT ${limit}`)
  return rowsOf(result).map((r) => ({
    id: r.id as string,
    appId: (r.app_id as string | null) ?? null,
    createdBy: (r.created_by as string | null) ?? null,
    title: (r.title as string | null) ?? null,
    lastChanged: new Date(r.last_changed as string | Date),
  }))
}

/** Each kind's table, whose row a batch locks before deciding it again. */
const ITEM_TABLE: Record<ItemKind, ReturnType<typeof sql>> = {
  documents: sql`documents`,
  recordings: sql`recordings`,
  conversations: sql`conversations`,
  storage_objects: sql`storage_objects`,
}

/**
 * Locks item `id` of `kind` (FOR UPDATE: a concurrent change waits for the batch, or has
 * committed and is read) and answers its last change as LAST_CHANGE reads it now; undefined when
 * the item is gone.
 */
async function lockedLastChange(tx: Tx, kind: ItemKind, id: string): Promise<Date | undefined> {
  const locked = await tx.execute(
    sql`SELECT id FROM ${ITEM_TABLE[kind]} WHERE id = ${id}::uuid FOR UPDATE`,
  )
  if (rowsOf(locked).length === 0) return undefined
  const [row] = rowsOf(
    await tx.execute(
      sql`SELECT x.last_changed FROM (${LAST_CHANGE[kind]}) x WHERE x.id = ${id}::uuid`,
    ),
  )
  return row ? new Date(row.last_changed as string | Date) : undefined
}

/** The organisation's standing holds (the caller's RLS confines them). */
async function holdsInForce(tx: Tx): Promise<HoldInForce[]> {
  const rows = await tx
    .select({ targetKind: legalHolds.targetKind, targetId: legalHolds.targetId })
    .from(legalHolds)
    .where(isNull(legalHolds.releasedAt))
  return rows.map((r) => ({
    targetKind: r.targetKind as LegalHoldTargetKind,
    targetId: r.targetId,
  }))
}

/** Files to remove once a batch has committed. */
type FileRemoval = { document: RemovedDocument } | { recording: RemovedRecording } | { key: string }

/**
 * Deletes one due item's rows inside `tx` as a person's delete of it would (its analyses,
 * passages, segments and messages by cascade, its jobs stopped, its transcript with it), and
 * answers the files to remove after the commit. Undefined when the item is gone already.
 */
async function deleteRows(
  tx: Tx,
  principal: Principal,
  kind: ItemKind,
  item: DueItem,
): Promise<FileRemoval[] | undefined> {
  if (kind === 'documents') {
    const removed = await removeDocument(tx, principal, item.id)
    return removed ? [{ document: removed }] : undefined
  }
  if (kind === 'recordings') {
    const removed = await removeRecording(tx, principal, item.id)
    return removed ? [{ recording: removed }] : undefined
  }
  if (kind === 'conversations') {
    const [row] = await tx
      .delete(conversations)
      .where(eq(conversations.id, item.id))
      .returning({ id: conversations.id })
    return row ? [] : undefined
  }
  const [row] = await tx
    .delete(storageObjects)
    .where(eq(storageObjects.id, item.id))
    .returning({ fileKey: storageObjects.fileKey, bucketId: storageObjects.bucketId })
  if (!row) return undefined
  await recordEvent(tx, principal, 'object.deleted', {
    objectId: item.id,
    bucketId: row.bucketId,
    name: item.title ?? '',
  })
  return [{ key: row.fileKey }]
}

/** What a run did, as the job's result. */
export type RetentionOutcome = {
  deleted: Record<RetentionKind, number>
  held: number
  /** Files of deleted rows the store failed to remove, left to the next start's orphan walk. */
  filesLeft: number
}

/** What one batch did. */
interface BatchOutcome {
  deleted: number
  held: number
  files: FileRemoval[]
  /** The last id read (the next batch starts after it); null when the batch read none. */
  last: string | null
}

/**
 * One batch of `kind`: reads up to BATCH_SIZE due items after `cursor` and deletes those no hold
 * keeps, each in a savepoint, all in one transaction with their audit entries and report rows.
 */
async function runBatch(
  db: Db,
  principal: Principal,
  jobId: string | null,
  kind: ItemKind,
  cursor: string | null,
  now: Date,
): Promise<BatchOutcome> {
  return withTenant(db, principal, async (tx) => {
    const items = await dueItems(tx, kind, cursor, BATCH_SIZE)
    const holds = await holdsInForce(tx)
    const policies = await tx
      .select({
        id: retentionPolicies.id,
        appId: retentionPolicies.appId,
        kind: retentionPolicies.kind,
        keepDays: retentionPolicies.keepDays,
      })
      .from(retentionPolicies)
    const outcome: BatchOutcome = { deleted: 0, held: 0, files: [], last: items.at(-1)?.id ?? null }
    for (const item of items) {
      const holdable: HoldableItem = {
        kind: HOLDABLE_KIND[kind],
        id: item.id,
        appId: item.appId,
        createdBy: item.createdBy,
      }
      // The query chose by the same rule; the rule in TypeScript has the last word (with the
      // policies as this transaction reads them).
      const policy = governingPolicy(policies, kind, item.appId)
      if (!policy || policy.keepDays === null) continue
      // Locked, then read again: a change committed since the batch's read (an object
      // overwritten, a new analysis, a message) keeps the item for another period.
      const lastChanged = await lockedLastChange(tx, kind, item.id)
      if (!lastChanged) continue
      const verdict = retentionVerdict(lastChanged, policy.keepDays, now)
      const fate = decideFate(holdable, holds, verdict)
      if (fate.fate === 'keep') {
        if (fate.because === 'legal_hold') outcome.held += 1
        continue
      }
      // A hold placed since the holds were read: the trigger refuses; this item alone rolls back.
      await tx.execute(sql`SAVEPOINT retention_item`)
      let files: FileRemoval[] | undefined
      try {
        files = await deleteRows(tx, principal, kind, item)
      } catch (error) {
        if (!isLegalHoldViolation(error)) throw error
        await tx.execute(sql`ROLLBACK TO SAVEPOINT retention_item`)
        outcome.held += 1
        continue
      }
      await tx.execute(sql`RELEASE SAVEPOINT retention_item`)
      if (!files) continue
      await recordAudit(
        tx,
        principal,
        'retention.delete',
        { type: HOLDABLE_KIND[kind], id: item.id },
        { policyId: policy.id, kind, keepDays: policy.keepDays, jobId },
      )
      await tx.insert(retentionDeletions).values({
        orgId: principal.orgId,
        appId: item.appId,
        policyId: policy.id,
        policyKeepDays: policy.keepDays,
        jobId,
        kind,
        targetId: item.id,
        title: item.title,
        lastChangedAt: lastChanged,
      })
      outcome.deleted += 1
      outcome.files.push(...files)
    }
    return outcome
  })
}

/**
 * Removes a committed batch's files through the paths a person's delete uses. A file the store
 * fails to remove (a network error, a permission) does not stop the run, whose rows are already
 * gone: it is counted, and the next start's orphan walk removes it (noteFilesLeftBehind).
 * Resolves to how many removals failed.
 */
async function removeFiles(blobs: BlobStore, files: readonly FileRemoval[]): Promise<number> {
  let failed = 0
  for (const file of files) {
    try {
      if ('document' in file) await removeDocumentFiles(blobs, file.document)
      else if ('recording' in file) await removeRecordingFiles(blobs, file.recording)
      else await blobs.delete(file.key)
    } catch {
      failed += 1
      noteFilesLeftBehind()
    }
  }
  return failed
}

/**
 * One batch of the organisation's audit entries older than its "audit entries" policy, through
 * purge_audit_entries (the only path that may delete them, migration 0062), with the batch's
 * report row and audit entry in the same transaction. Answers how many were deleted.
 */
async function purgeAuditBatch(
  db: Db,
  principal: Principal,
  jobId: string | null,
): Promise<number> {
  return withTenant(db, principal, async (tx) => {
    const [row] = rowsOf(
      await tx.execute(sql`SELECT purge_audit_entries(${AUDIT_BATCH_SIZE}) AS deleted`),
    )
    const deleted = Number(row?.deleted ?? 0)
    if (deleted === 0) return 0
    const [policy] = await tx
      .execute(
        sql`
      SELECT id::text AS id, keep_days FROM retention_policies
      WHERE app_id IS NULL AND kind = 'audit_entries'`,
      )
      .then(rowsOf)
    const policyId = policy?.id as string
    const keepDays = Number(policy?.keep_days)
    await tx.insert(retentionDeletions).values({
      orgId: principal.orgId,
      policyId,
      policyKeepDays: keepDays,
      jobId,
      kind: 'audit_entries',
      itemCount: deleted,
    })
    await recordAudit(
      tx,
      principal,
      'retention.delete',
      { type: 'audit_entries', id: null },
      { policyId, kind: 'audit_entries', keepDays, jobId, count: deleted },
    )
    return deleted
  })
}

/**
 * The principal a run deletes as: the system of the job's organisation (whoever asked for the
 * run, the job records it), with the admin role a deletion of anyone's item needs.
 */
export function retentionPrincipal(orgId: string): Principal {
  return { orgId, userId: null, role: 'admin', actorType: 'system' }
}

/**
 * Runs retention for organisation `orgId` (see the module's docs); `signal` stops it between two
 * batches (throwing its reason), `progress` hears of each kind as it starts. `jobId` names the
 * run in the audit entries and the report. Exported for tests that drive a run without a runner.
 */
export async function runRetention(
  deps: { db: Db; blobs: BlobStore },
  orgId: string,
  options: {
    jobId?: string | null
    signal?: AbortSignal
    progress?: (fraction: number, message: string) => void
    now?: () => Date
  } = {},
): Promise<RetentionOutcome> {
  const principal = retentionPrincipal(orgId)
  const jobId = options.jobId ?? null
  const now = options.now ?? (() => new Date())
  const outcome: RetentionOutcome = {
    deleted: {
      documents: 0,
      recordings: 0,
      conversations: 0,
      storage_objects: 0,
      audit_entries: 0,
    },
    held: 0,
    filesLeft: 0,
  }
  const steps = ITEM_KINDS.length + 1
  for (const [index, kind] of ITEM_KINDS.entries()) {
    options.progress?.(index / steps, `Deleting due ${kind.replace('_', ' ')}`)
    let cursor: string | null = null
    for (;;) {
      options.signal?.throwIfAborted()
      const batch = await runBatch(deps.db, principal, jobId, kind, cursor, now())
      outcome.deleted[kind] += batch.deleted
      outcome.held += batch.held
      outcome.filesLeft += await removeFiles(deps.blobs, batch.files)
      if (batch.last === null) break
      options.progress?.(
        index / steps,
        `Deleted ${outcome.deleted[kind]} ${kind.replace('_', ' ')}`,
      )
      cursor = batch.last
    }
  }
  options.progress?.(ITEM_KINDS.length / steps, 'Deleting due audit entries')
  for (;;) {
    options.signal?.throwIfAborted()
    const deleted = await purgeAuditBatch(deps.db, principal, jobId)
    outcome.deleted.audit_entries += deleted
    if (deleted < AUDIT_BATCH_SIZE) break
  }
  options.progress?.(1, 'Done')
  return outcome
}

/** The 'retention' job's handler over the database and the blob store. */
export function retentionJobHandler(deps: {
  db: Db
  blobs: BlobStore
}): JobHandlerOf<typeof retentionJobContract> {
  return {
    run: (job, { signal, progress }) =>
      runRetention(deps, job.orgId, { jobId: job.id, signal, progress }),
  }
}
