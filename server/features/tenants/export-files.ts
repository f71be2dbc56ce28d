/**
 * The stored archives of organisation exports, for start-up reconciliation
 * (server/blob/orphan-files.ts): `orgs/<org>/exports/<jobId>.zip` is kept while its export job's
 * record exists and has not failed or been cancelled, so it stays downloadable as long as the job
 * is listed, and goes with it when job retention purges the record.
 */
import { and, eq, inArray, sql } from 'drizzle-orm'
import { jobs } from '../../db/schema'
import type { FileOwnership } from '../../blob/orphan-files'
import { EXPORT_JOB_KIND, exportBlobKey } from './export-job'

/** Export archives, owned by their queued, running or succeeded export job. */
export const exportFiles: FileOwnership = {
  area: 'exports',
  label: 'export archives',
  unitOf: (rest) => rest.join('/').replace(/\.zip$/, ''),
  async owned(tx, jobIds) {
    const ids = jobIds.filter((id) => /^[0-9a-f-]{36}$/.test(id))
    if (ids.length === 0) return []
    const rows = await tx
      .select({ id: sql<string>`${jobs.id}::text` })
      .from(jobs)
      .where(
        and(
          eq(jobs.kind, EXPORT_JOB_KIND),
          inArray(jobs.status, ['queued', 'running', 'succeeded']),
          inArray(jobs.id, ids),
        ),
      )
    return rows.map((r) => r.id)
  },
  remove: (blobs, orgId, jobId) => blobs.delete(exportBlobKey(orgId, jobId)),
}
