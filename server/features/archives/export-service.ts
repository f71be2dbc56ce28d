/**
 * Starting an organisation export and finding its archive (issue 27). The work is the
 * 'tenant-export' job (export-job.ts); these are what the routes and the command line call.
 */
import type { Db } from '../../db/client'
import { withTenant, type Principal } from '../../db/tenant'
import { notFound } from '../../errors/app-error'
import { getJob, type JobOfKind } from '../../jobs/job-service'
import type { tenantExportJobContract } from '../../jobs/contracts/tenant-export-job-contract'
import type { BlobAnswer } from '../../blob/send-blob'
import type { AppServices } from '../../services'
import { EXPORT_JOB_KIND, exportBlobKey, type ExportJobInput } from './export-job'

/** Queues the export of `principal`'s organisation; resolves to the queued job. */
export function startExport(
  services: Pick<AppServices, 'db' | 'jobs'>,
  principal: Principal,
  input: ExportJobInput,
): Promise<JobOfKind<typeof tenantExportJobContract>> {
  return withTenant(services.db, principal, (tx) =>
    services.jobs.enqueue(tx, principal, EXPORT_JOB_KIND, input),
  )
}

/**
 * The stored archive of export job `jobId` of the principal's organisation, with its download
 * name; 404 `file_not_found` unless that job is an export that succeeded (404 `job_not_found`
 * for another organisation's job or none).
 */
export async function exportArchiveOf(
  db: Db,
  principal: Principal,
  jobId: string,
): Promise<BlobAnswer> {
  const job = await getJob(db, principal, jobId)
  if (job.kind !== EXPORT_JOB_KIND || job.status !== 'succeeded') throw notFound('File')
  const { fileName } = job.result as { fileName: string }
  return {
    key: exportBlobKey(principal.orgId, jobId),
    fileName,
    contentType: 'application/zip',
    missing: () => notFound('File'),
  }
}
