/**
 * The temporary archives of organisation clones, for start-up reconciliation
 * (server/blob/orphan-files.ts): a clone deletes `orgs/<org>/clones/<jobId>.zip` however it ends,
 * so one is left only by a crash; it is kept while its clone job is queued or running (a retry
 * writes it again) and removed otherwise.
 */
import { ACTIVE_STATUSES } from '../../jobs/job-service'
import { CLONE_JOB_KIND } from './clone-job'
import { jobArchiveFiles } from './job-archive-files'

/** Clone archives, owned by their queued or running clone job. */
export const cloneFiles = jobArchiveFiles({
  area: 'clones',
  label: 'clone archives',
  kind: CLONE_JOB_KIND,
  statuses: ACTIVE_STATUSES,
})
