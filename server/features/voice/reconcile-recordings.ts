/**
 * The files of recordings, for start-up reconciliation (as decision 11 does for documents;
 * server/blob/orphan-files.ts): an upload writes the file before the row, so a crash between the
 * two leaves a file under `orgs/<org>/voice-recordings/` that no row names; such files are removed.
 */
import { inArray } from 'drizzle-orm'
import { recordings } from '../../db/schema'
import type { FileOwnership } from '../../blob/orphan-files'

/** Recording files, owned by the recording row that names them. */
export const recordingFiles: FileOwnership = {
  area: 'voice-recordings',
  label: 'recording files',
  async owned(tx, keys) {
    const rows = await tx
      .select({ key: recordings.fileKey })
      .from(recordings)
      .where(inArray(recordings.fileKey, keys))
    return rows.map((r) => r.key)
  },
  remove: (blobs, _orgId, key) => blobs.delete(key),
}
