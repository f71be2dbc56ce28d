/**
 * CSV export of the audit log, streamed: the rows matching the viewer's filters, newest first,
 * read in keyset batches of EXPORT_BATCH, each in its own short tenant transaction (memory flat
 * whatever the log holds), written as formula-safe records (server/http/csv-line.ts).
 */
import type { Db } from '../../db/client'
import type { Principal } from '../../db/tenant'
import { csvLine } from '../../http/csv-line'
import { readAuditBatch, type AuditFilters } from './service'

/** Rows read per statement (as the entities export). */
export const EXPORT_BATCH = 1000

/** Columns of the exported file, in order. */
export const AUDIT_CSV_COLUMNS = [
  'created_at',
  'actor_type',
  'actor_id',
  'actor_name',
  'credential_id',
  'action',
  'target_type',
  'target_id',
  'meta',
] as const

/**
 * The CSV file of the audit rows matching `filters`, as chunks of text: the header, then one
 * chunk per batch. Stops early when the consumer stops reading.
 */
export async function* exportAuditCsv(
  db: Db,
  principal: Principal,
  filters: AuditFilters,
): AsyncGenerator<string> {
  yield csvLine(AUDIT_CSV_COLUMNS)
  let after: { createdAt: string; id: string } | undefined
  for (;;) {
    const rows = await readAuditBatch(db, principal, filters, after, EXPORT_BATCH)
    if (rows.length === 0) return
    yield rows
      .map((r) =>
        csvLine([
          r.createdAt,
          r.actorType,
          r.actorId,
          r.actorName,
          r.credentialId,
          r.action,
          r.targetType,
          r.targetId,
          r.meta,
        ]),
      )
      .join('')
    const last = rows.at(-1)
    if (!last || rows.length < EXPORT_BATCH) return
    after = { createdAt: last.createdAt, id: last.id }
  }
}
