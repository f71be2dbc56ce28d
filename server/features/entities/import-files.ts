/**
 * The stored files of imports (CSV imports of entities, and organisation archives waiting for
 * their 'tenant-import' job), for start-up reconciliation (server/blob/orphan-files.ts). An
 * import's file lives under `orgs/<org>/imports/` while its job is queued or running, and the job
 * removes it when it ends; a crash during the import, or a cancel while it was still queued,
 * leaves the file behind, and this removes it once its job has ended. A file is owned by any
 * queued or running job whose input names it as `blobKey`, whatever the job's kind.
 */
import { and, inArray, sql } from 'drizzle-orm'
import { jobs } from '../../db/schema'
import type { FileOwnership } from '../../blob/orphan-files'
import { ACTIVE_STATUSES } from '../../jobs/job-service'

/** Import files, owned by a queued or running job whose input names them. */
export const importFiles: FileOwnership = {
  area: 'imports',
  label: 'import files',
  async owned(tx, keys) {
    const blobKey = sql<string>`${jobs.input} ->> 'blobKey'`
    const rows = await tx
      .select({ key: blobKey })
      .from(jobs)
      .where(and(inArray(jobs.status, ACTIVE_STATUSES), inArray(blobKey, keys)))
    return rows.map((r) => r.key)
  },
  remove: (blobs, _orgId, key) => blobs.delete(key),
}
