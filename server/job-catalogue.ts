/**
 * Every job kind of the server, as contracts (decisions 0039, 0119): the runner claims only these
 * kinds, `enqueue` is typed by them, and the OpenAPI Job schema enumerates their kinds and
 * results (job-schema.ts). Contracts only, never handlers: this list and everything that imports
 * it (services.ts, every feature) stay below the features, and the handlers are bound to their
 * kinds once, at composition (job-handlers.ts). A new kind is a contract in server/jobs/contracts/,
 * one line here and one in job-handlers.ts.
 */
import { analysisJobContract } from './jobs/contracts/analysis-job-contract'
import { comparisonJobContract } from './jobs/contracts/comparison-job-contract'
import { documentPassagesJobContract } from './jobs/contracts/document-passages-job-contract'
import { entitiesImportJobContract } from './jobs/contracts/entities-import-job-contract'
import { ocrJobContract } from './jobs/contracts/ocr-job-contract'
import { retentionJobContract } from './jobs/contracts/retention-job-contract'
import { reviewFillJobContract } from './jobs/contracts/review-fill-job-contract'
import { tenantCloneJobContract } from './jobs/contracts/tenant-clone-job-contract'
import { tenantExportJobContract } from './jobs/contracts/tenant-export-job-contract'
import { tenantImportJobContract } from './jobs/contracts/tenant-import-job-contract'
import { transcriptionJobContract } from './jobs/contracts/transcription-job-contract'

export const JOB_CATALOGUE = [
  analysisJobContract,
  transcriptionJobContract,
  documentPassagesJobContract,
  entitiesImportJobContract,
  ocrJobContract,
  tenantExportJobContract,
  tenantImportJobContract,
  tenantCloneJobContract,
  reviewFillJobContract,
  comparisonJobContract,
  retentionJobContract,
] as const

/** The type of the catalogue: what `JobRunner.enqueue` and `JobRunner.bind` are typed by. */
export type AppJobCatalogue = typeof JOB_CATALOGUE
