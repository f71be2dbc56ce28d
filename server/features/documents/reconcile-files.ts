/**
 * The files of documents, for start-up reconciliation (issue 5, hole 3; server/blob/orphan-files.ts).
 * Uploads write the file before the row, so a crash between the two leaves a folder
 * `orgs/<org>/documents/<id>/` without a row; such folders are removed. Rows never lack their file.
 */
import { inArray } from 'drizzle-orm'
import { documents } from '../../db/schema'
import type { FileOwnership } from '../../blob/orphan-files'
import { documentFolder } from '../../documents/document-writes'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Document folders, owned by the document row of the same id. */
export const documentFiles: FileOwnership = {
  area: 'documents',
  unitOf: (rest) => rest[0]!,
  label: 'document files',
  async owned(tx, ids) {
    // Ids that are not UUIDs cannot be rows; the query only takes UUIDs.
    const candidates = ids.filter((id) => UUID.test(id))
    if (candidates.length === 0) return []
    const rows = await tx
      .select({ id: documents.id })
      .from(documents)
      .where(inArray(documents.id, candidates))
    return rows.map((r) => r.id)
  },
  remove: (blobs, orgId, id) => blobs.deletePrefix(documentFolder(orgId, id)),
}
