/**
 * The 'tenant-import' job's contract: a stored organisation archive imported as a new
 * organisation of `orgName` or into the existing `targetOrgId` (exactly one); its result names the
 * organisation, the rows per table and the invitations made. Two attempts, the second after
 * sweeping the first's staging. Run by features/archives/import-job.ts.
 */
import { z } from 'zod'
import { defineJobContract } from '../define-job-contract'

export const tenantImportJobContract = defineJobContract({
  kind: 'tenant-import',
  input: z
    .object({
      blobKey: z.string().min(1),
      /** A new organisation of this name… */
      orgName: z.string().min(1).max(200).optional(),
      /** …or this existing one (its owner imports). */
      targetOrgId: z.string().min(1).max(200).optional(),
    })
    .refine((i) => (i.orgName === undefined) !== (i.targetOrgId === undefined), {
      message: 'An import names either a new organisation or an existing one',
    }),
  result: z
    .object({
      orgId: z.string(),
      counts: z.record(z.string(), z.number().int().nonnegative()),
      invitations: z.number().int().nonnegative(),
    })
    .meta({ id: 'TenantImportJobResult' }),
  maxAttempts: 2,
})
