/**
 * The stored files of bucket objects, for start-up reconciliation (server/blob/orphan-files.ts):
 * an upload writes its file before the row names it, so a crash between the two leaves a file
 * that no `storage_objects` row names; this removes it.
 */
import { inArray } from 'drizzle-orm'
import { storageObjects } from '../../db/schema'
import type { FileOwnership } from '../../blob/orphan-files'

/** Bucket files, each owned by the object row whose `file_key` it is. */
export const bucketFiles: FileOwnership = {
  area: 'buckets',
  label: 'bucket files',
  async owned(tx, keys) {
    const rows = await tx
      .select({ key: storageObjects.fileKey })
      .from(storageObjects)
      .where(inArray(storageObjects.fileKey, keys))
    return rows.map((r) => r.key)
  },
  remove: (blobs, _orgId, key) => blobs.delete(key),
}
