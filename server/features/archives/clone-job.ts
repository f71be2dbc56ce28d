/**
 * The 'tenant-clone' job (issue 27, decision 0072): copies the job's organisation into a new one
 * (clone-organisation.ts) owned by the person who asked, reporting the export and import halves
 * as one progress; a cancel stops it between pages and entries and leaves nothing behind. Two
 * attempts: a retry after a crash sweeps the first attempt's staging organisation (import-job.ts)
 * and writes the temporary archive again.
 */
import type { z } from 'zod'
import type { JobHandlerOf } from '../../jobs/define-job-contract'
import { tenantCloneJobContract } from '../../jobs/contracts/tenant-clone-job-contract'
import { jobPrincipal } from '../../jobs/job-runner'
import { AppError } from '../../errors/app-error'
import type { AppServices } from '../../services'
import { cloneOrganisation, type CloneSummary } from './clone-organisation'

export const CLONE_JOB_KIND = tenantCloneJobContract.kind

export type CloneJobInput = z.output<typeof tenantCloneJobContract.input>

/** The handler of 'tenant-clone' jobs (contract: server/jobs/contracts/tenant-clone-job-contract.ts). */
export function cloneJobHandler(
  services: AppServices,
): JobHandlerOf<typeof tenantCloneJobContract> {
  return {
    run(job, context): Promise<CloneSummary> {
      if (!job.createdBy) throw new AppError('forbidden', 'A clone needs the owner who started it.')
      return cloneOrganisation(
        services,
        {
          actor: jobPrincipal(job),
          ownerId: job.createdBy,
          jobId: job.id,
          targetOrgName: job.input.targetOrgName,
          cloneBuckets: job.input.cloneBuckets,
        },
        {
          signal: context.signal,
          progress: (fraction, message) => context.progress(fraction, message),
        },
      )
    },
  }
}
