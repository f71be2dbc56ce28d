/**
 * The 'tenant-export' job (issue 27): writes the organisation's archive (export-archive.ts) to
 * `orgs/<org>/exports/<jobId>.zip`, reporting each table and file folder as progress; a cancel
 * stops it between pages and removes what was written. Its result names the download
 * (`lexdesk-{org-slug}-{YYYY-MM-DD}.zip`), the size and the counts; the archive stays while the
 * job's record does (export-files.ts), and the event log and audit log say it was made.
 */
import type { z } from 'zod'
import type { JobHandlerOf } from '../../jobs/define-job-contract'
import { tenantExportJobContract } from '../../jobs/contracts/tenant-export-job-contract'
import { jobPrincipal } from '../../jobs/job-runner'
import { jobArchiveKey } from './job-archive-files'
import { withTenant, type Principal } from '../../db/tenant'
import type { Db } from '../../db/client'
import { recordAudit } from '../../audit/record-audit'
import { recordEvent } from '../../events/record-event'
import type { AppServices } from '../../services'
import { blobTarget, writeExportArchive } from './export-archive'
import { sourceOrganisation } from './org-members'
import { EXPORTED_TABLES } from './archive-format'
import { LEXDESK_VERSION } from './lexdesk-version'

export const EXPORT_JOB_KIND = tenantExportJobContract.kind

export type ExportJobInput = z.output<typeof tenantExportJobContract.input>

/** Where export job `jobId` of organisation `orgId` keeps its archive. */
export function exportBlobKey(orgId: string, jobId: string): string {
  return jobArchiveKey('exports', orgId, jobId)
}

/** The archive's download name: `lexdesk-{org-slug}-{YYYY-MM-DD}.zip` (the day it was made, UTC). */
export function exportFileName(slug: string, at: Date): string {
  return `lexdesk-${slug}-${at.toISOString().slice(0, 10)}.zip`
}

/**
 * Records a finished export of `principal`'s organisation in its audit log and event log: by
 * job `jobId`, or by the operator's command line (null).
 */
export function recordExport(
  db: Db,
  principal: Principal,
  jobId: string | null,
  sizeBytes: number,
): Promise<void> {
  return withTenant(db, principal, async (tx) => {
    await recordAudit(tx, principal, 'org.exported', { type: 'job', id: jobId }, { sizeBytes })
    await recordEvent(tx, principal, 'org.exported', { jobId, sizeBytes }, null)
  })
}

/** Progress steps: the members, each table, and each table's files. */
const STEPS = 1 + EXPORTED_TABLES.length + EXPORTED_TABLES.filter((t) => t.filesIn).length

/**
 * The handler of 'tenant-export' jobs (contract: server/jobs/contracts/tenant-export-job-contract.ts;
 * one attempt: a crash leaves nothing to resume from).
 */
export function exportJobHandler(
  services: AppServices,
): JobHandlerOf<typeof tenantExportJobContract> {
  return {
    async run(job, context) {
      const principal = jobPrincipal(job)
      const scope = { orgId: job.orgId }
      const { slug } = await sourceOrganisation(services.db, job.orgId)
      let done = 0
      context.progress(0.01, 'Exporting members')
      const { sizeBytes, counts } = await writeExportArchive(
        services,
        scope,
        blobTarget(services.blobs, exportBlobKey(job.orgId, job.id)),
        {
          includeEmbeddings: job.input.includeEmbeddings,
          embedderId: services.engines.embedder.id,
          lexdeskVersion: LEXDESK_VERSION,
          signal: context.signal,
          progress: (message) => context.progress(Math.min(0.99, ++done / STEPS), message),
        },
      )
      const fileName = exportFileName(slug, new Date())
      await recordExport(services.db, principal, job.id, sizeBytes)
      return { fileName, sizeBytes, counts }
    },
  }
}
