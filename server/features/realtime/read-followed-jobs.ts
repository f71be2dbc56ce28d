/**
 * The realtime hub's reader of followed jobs (RealtimeHub's `readJobs`): jobs as getJob answers
 * them, with the app each belongs to (its subject's: server/jobs/job-app-id.ts, the rule the jobs
 * routes apply to an app-bound credential too).
 */
import { inArray } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { jobs } from '../../db/schema'
import { withTenant } from '../../db/tenant'
import { jobAppId } from '../../jobs/job-app-id'
import { toJob } from '../../jobs/job-service'
import type { ReadJobs } from '../../realtime/realtime-hub'

/** Returns the hub's reader of jobs on `db`, under each organisation's RLS. */
export function readFollowedJobs(db: Db): ReadJobs {
  return async (orgId, ids) => {
    if (ids.length === 0) return []
    const rows = await withTenant(db, { orgId }, (tx) =>
      tx
        .select({ job: jobs, appId: jobAppId })
        .from(jobs)
        .where(inArray(jobs.id, [...ids])),
    )
    return rows.map((row) => ({ job: toJob(row.job), appId: row.appId }))
  }
}
