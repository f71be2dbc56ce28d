/**
 * The 'tenant-clone' job (issue 27, decision 0072): copies the job's organisation into a new one
 * (clone-organisation.ts) owned by the person who asked, reporting the export and import halves
 * as one progress; a cancel stops it between pages and entries and leaves nothing behind. Two
 * attempts: a retry after a crash sweeps the first attempt's staging organisation (import-job.ts)
 * and writes the temporary archive again.
 */
import { z } from 'zod'
import { defineJob } from '../../jobs/define-job'
import { jobPrincipal } from '../../jobs/job-runner'
import { AppError } from '../../errors/app-error'
import type { AppServices } from '../../services'
import { cloneOrganisation, type CloneSummary } from './clone-organisation'

export const CLONE_JOB_KIND = 'tenant-clone' as const

const CloneJobInput = z.object({
  targetOrgName: z.string().min(1).max(200),
  cloneBuckets: z.boolean(),
})
export type CloneJobInput = z.output<typeof CloneJobInput>

const CloneJobResult = z
  .object({
    orgId: z.string(),
    slug: z.string(),
    counts: z.record(z.string(), z.number().int().nonnegative()),
  })
  .meta({ id: 'TenantCloneJobResult' })

/** The 'tenant-clone' job kind. */
export const cloneJob = defineJob({
  kind: CLONE_JOB_KIND,
  input: CloneJobInput,
  result: CloneJobResult,
  maxAttempts: 2,
  handler: (services: AppServices) => ({
    // Annotated: the clone's deps name the job queue, whose catalogue holds this job.
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
  }),
})
