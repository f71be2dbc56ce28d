/**
 * The realtime hub's reader of followed jobs (RealtimeHub's `readJobs`): jobs as getJob answers
 * them, with the app each belongs to. A job has no `app_id` of its own (decision 0048): it is its
 * subject's, a document's or a recording's app, or the app itself for a job on an app (an
 * import's); a subject of none of them (an organisation's export) is the organisation's.
 */
import { inArray, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { apps, documents, jobs, recordings } from '../../db/schema'
import { withTenant } from '../../db/tenant'
import { toJob } from '../../jobs/job-service'
import type { ReadJobs } from '../../realtime/realtime-hub'

/** Returns the hub's reader of jobs on `db`, under each organisation's RLS. */
export function readFollowedJobs(db: Db): ReadJobs {
  return async (orgId, ids) => {
    if (ids.length === 0) return []
    const rows = await withTenant(db, { orgId }, (tx) =>
      tx
        .select({
          job: jobs,
          documentApp: documents.appId,
          recordingApp: recordings.appId,
          app: apps.id,
        })
        .from(jobs)
        .leftJoin(documents, sql`${documents.id}::text = ${jobs.subjectId}`)
        .leftJoin(recordings, sql`${recordings.id}::text = ${jobs.subjectId}`)
        .leftJoin(apps, sql`${apps.id}::text = ${jobs.subjectId}`)
        .where(inArray(jobs.id, [...ids])),
    )
    return rows.map((row) => ({
      job: toJob(row.job),
      appId: row.documentApp ?? row.recordingApp ?? row.app ?? null,
    }))
  }
}
