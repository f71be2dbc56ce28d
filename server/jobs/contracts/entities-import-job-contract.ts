/**
 * The 'entities-import' job's contract: a stored CSV upload imported into an app's entities, all
 * rows or none, written under the app clause of the credential that queued it; its result counts
 * the rows written. Three attempts: a crash or a stop mid-import leaves it to be retried. Run by features/entities/import-csv.ts.
 */
import { z } from 'zod'
import { defineJobContract } from '../define-job-contract'

export const entitiesImportJobContract = defineJobContract({
  kind: 'entities-import',
  input: z.object({
    blobKey: z.string().min(1),
    fileName: z.string().max(200),
    size: z.number().int().nonnegative(),
    appId: z.string().uuid().nullable(),
    /**
     * The app of the credential that queued it (null: an organisation-wide one): the job writes
     * under that app's RLS clause (decision 0048), as the credential would. Absent in jobs queued
     * before it existed, which were the organisation's.
     */
    queuedInApp: z.string().uuid().nullable().default(null),
  }),
  result: z.object({ imported: z.number().int() }).meta({ id: 'EntitiesImportJobResult' }),
  maxAttempts: 3,
})
