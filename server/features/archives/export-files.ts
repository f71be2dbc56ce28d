/**
 * The stored archives of organisation exports, for start-up reconciliation
 * (server/blob/orphan-files.ts): `orgs/<org>/exports/<jobId>.zip` is kept while its export job's
 * record exists and has not failed or been cancelled, so it stays downloadable as long as the job
 * is listed, and goes with it when job retention purges the record.
 */
import { EXPORT_JOB_KIND } from './export-job'
import { jobArchiveFiles } from './job-archive-files'

/** Export archives, owned by their queued, running or succeeded export job. */
export const exportFiles = jobArchiveFiles({
  area: 'exports',
  label: 'export archives',
  kind: EXPORT_JOB_KIND,
  statuses: ['queued', 'running', 'succeeded'],
})
