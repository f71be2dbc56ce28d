import type { Db } from '../db/client'
import { JobRunner } from '../jobs/job-runner'
import { JOB_CATALOGUE, type AppJobCatalogue } from '../job-catalogue'

const quiet = { info: () => {}, warn: () => {}, error: () => {} }

/**
 * A job runner over `db` with the app's catalogue that is never started: `enqueue` checks and
 * stores jobs (tests then read or run them), nothing claims them.
 */
export function queueOnlyJobRunner(db: Db): JobRunner<AppJobCatalogue> {
  return new JobRunner({ db, log: quiet, catalogue: JOB_CATALOGUE })
}
