/**
 * The 'tenant-export' job's contract: the organisation's archive written to the blob store; its
 * result names the file, its size and the rows per table. One attempt. Run by
 * features/archives/export-job.ts.
 */
import { z } from 'zod'
import { defineJobContract } from '../define-job-contract'

export const tenantExportJobContract = defineJobContract({
  kind: 'tenant-export',
  input: z.object({ includeEmbeddings: z.boolean() }),
  result: z
    .object({
      fileName: z.string(),
      sizeBytes: z.number().int().nonnegative(),
      counts: z.record(z.string(), z.number().int().nonnegative()),
    })
    .meta({ id: 'TenantExportJobResult' }),
  maxAttempts: 1,
})
