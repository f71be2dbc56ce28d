/** Test factory: a job queue whose jobs the app's runner leaves alone, so a test runs them itself. */
import { eq } from 'drizzle-orm'
import { jobs } from '../db/schema'
import type { Principal } from '../db/tenant'
import { insertJob } from '../jobs/job-service'
import type { AppServices } from '../services'

/**
 * The app's `jobs` service as far as an enqueue goes: each job is inserted as usual, in the
 * caller's transaction, but may not run before tomorrow (`runAfter` a day ahead), as the
 * authorisation walk parks its jobs. Resolves to the inserted job.
 */
export const parkedJobs = {
  async enqueue(
    tx: Parameters<typeof insertJob>[0],
    principal: Principal,
    kind: string,
    input: object,
    options: { subjectId?: string } = {},
  ) {
    const job = await insertJob(tx, principal, { kind, input, subjectId: options.subjectId })
    await tx
      .update(jobs)
      .set({ runAfter: new Date(Date.now() + 86_400_000) })
      .where(eq(jobs.id, job.id))
    return job
  },
} as unknown as AppServices['jobs']
