/**
 * The daily retention run of every organisation with a policy (issue 45, decision 0148), as a
 * recurring task of the job runner (JobRunner.every, bound at composition in server/app.ts): once
 * an hour it queues a 'retention' job for each organisation that has a policy and no retention
 * job created in the last RUN_EVERY_HOURS hours (whoever queued it: a "Run now" counts) and none
 * still queued or running, under a
 * per-organisation advisory lock so two server processes never queue two. The runner's fair
 * claiming then shares the server between the organisations' runs (one job each).
 */
import { and, eq, gt, or, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { jobs, organization } from '../../db/schema'
import { withTenant } from '../../db/tenant'
import type { RecurringTask } from '../../jobs/job-runner'
import { retentionPrincipal } from './retention-job'
import { hasPolicies, type RetentionQueue } from './service'

/** Hours between two runs of an organisation (a day, less an hour of slack for the check's period). */
export const RUN_EVERY_HOURS = 23

/** How often the schedule looks for organisations due a run (an hour), and its first look. */
const CHECK_EVERY_MS = 60 * 60 * 1000
const FIRST_CHECK_AFTER_MS = 10 * 60 * 1000

/**
 * Queues today's run of every organisation with a policy that has had none for RUN_EVERY_HOURS
 * hours; answers the organisations queued.
 */
export async function queueDueRetentionRuns(deps: {
  db: Db
  jobs: RetentionQueue
}): Promise<string[]> {
  const orgs = await deps.db.select({ id: organization.id }).from(organization)
  const queued: string[] = []
  for (const { id: orgId } of orgs) {
    if (!(await hasPolicies(deps.db, orgId))) continue
    const principal = retentionPrincipal(orgId)
    const made = await withTenant(deps.db, principal, async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('retention:' || ${orgId}))`)
      const [recent] = await tx
        .select({ id: jobs.id })
        .from(jobs)
        .where(
          and(
            eq(jobs.kind, 'retention'),
            or(
              gt(jobs.createdAt, sql`now() - make_interval(hours => ${RUN_EVERY_HOURS})`),
              // A run still waiting or running, however old: never a second one behind it.
              sql`${jobs.status} IN ('queued', 'running')`,
            ),
          ),
        )
        .limit(1)
      if (recent) return false
      await deps.jobs.enqueue(tx, principal, 'retention', {})
      return true
    })
    if (made) queued.push(orgId)
  }
  return queued
}

/** The recurring task that queues the daily runs (JobRunner.every). */
export function retentionSchedule(deps: { db: Db; jobs: RetentionQueue }): RecurringTask {
  return {
    name: 'retention schedule',
    everyMs: CHECK_EVERY_MS,
    firstAfterMs: FIRST_CHECK_AFTER_MS,
    run: async () => {
      await queueDueRetentionRuns(deps)
    },
  }
}
