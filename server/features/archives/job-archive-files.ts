/**
 * Archives a tenant job keeps in the store under `orgs/<org>/<area>/<jobId>.zip`, for start-up
 * reconciliation (server/blob/orphan-files.ts): an archive is kept while a job of its kind and
 * id is in one of the statuses that still need it, and removed otherwise (a crash, a cancel, or
 * job retention purging the record).
 */
import { and, eq, inArray, sql } from 'drizzle-orm'
import { jobs } from '../../db/schema'
import type { FileOwnership } from '../../blob/orphan-files'
import { orgBlobKey, type BlobArea } from '../../blob/blob-keys'
import type { JobStatus } from '../../jobs/job-service'

/** The key of job `jobId`'s archive in `area` of organisation `orgId`. */
export function jobArchiveKey(area: BlobArea, orgId: string, jobId: string): string {
  return orgBlobKey(orgId, area, `${jobId}.zip`)
}

/** The ownership of `area`'s archives: each owned by its job of `kind` while in `statuses`. */
export function jobArchiveFiles(options: {
  area: BlobArea
  label: string
  kind: string
  statuses: JobStatus[]
}): FileOwnership {
  const { area, label, kind, statuses } = options
  return {
    area,
    label,
    unitOf: (rest) => rest.join('/').replace(/\.zip$/, ''),
    async owned(tx, jobIds) {
      const ids = jobIds.filter((id) => /^[0-9a-f-]{36}$/.test(id))
      if (ids.length === 0) return []
      const rows = await tx
        .select({ id: sql<string>`${jobs.id}::text` })
        .from(jobs)
        .where(and(eq(jobs.kind, kind), inArray(jobs.status, statuses), inArray(jobs.id, ids)))
      return rows.map((r) => r.id)
    },
    remove: (blobs, orgId, jobId) => blobs.delete(jobArchiveKey(area, orgId, jobId)),
  }
}
