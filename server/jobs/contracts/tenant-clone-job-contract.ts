/**
 * The 'tenant-clone' job's contract (decision 0072): the job's organisation copied into a new one
 * named `targetOrgName`, its buckets too when `cloneBuckets`; its result names the copy and the
 * rows per table. Two attempts: a retry sweeps the first attempt's staging organisation. Run by
 * features/archives/clone-job.ts.
 */
import { z } from 'zod'
import { defineJobContract } from '../define-job-contract'

export const tenantCloneJobContract = defineJobContract({
  kind: 'tenant-clone',
  input: z.object({
    targetOrgName: z.string().min(1).max(200),
    cloneBuckets: z.boolean(),
  }),
  result: z
    .object({
      orgId: z.string(),
      slug: z.string(),
      counts: z.record(z.string(), z.number().int().nonnegative()),
    })
    .meta({ id: 'TenantCloneJobResult' }),
  maxAttempts: 2,
})
