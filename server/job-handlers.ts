/**
 * The composition's map from each job kind of the catalogue (job-catalogue.ts) to its handler,
 * built over the app's services (decision 0119). `JobRunner.bind` takes it once, in app.ts: the
 * type asks for exactly one handler per kind, each over its contract's input and result. The only
 * file besides app.ts that imports the features' job handlers, so no contract, service or
 * feature depends on another feature's handler.
 */
import type { JobHandlers } from './jobs/define-job-contract'
import type { AppJobCatalogue } from './job-catalogue'
import type { AppServices } from './services'
import { analysisJobHandler } from './features/analysis/analysis-job'
import { transcriptionJobHandler } from './features/voice/transcription-job'
import { passageJobHandler } from './search/index-document'
import { importJobHandler } from './features/entities/import-csv'
import { ocrJobHandler } from './features/documents/ocr-job'
import { exportJobHandler } from './features/archives/export-job'
import { importTenantJobHandler } from './features/archives/import-job'
import { cloneJobHandler } from './features/archives/clone-job'
import { reviewFillJobHandler } from './features/reviews/review-fill-job'
import { comparisonJobHandler } from './features/comparisons/comparison-job'
import { retentionJobHandler } from './features/retention/retention-job'

/** One handler per job kind, bound to `services`. */
export function jobHandlers(services: AppServices): JobHandlers<AppJobCatalogue> {
  return {
    analysis: analysisJobHandler(services),
    transcription: transcriptionJobHandler({
      db: services.db,
      blobs: services.blobs,
      pool: services.pool,
      maxRecordingMinutes: services.limits.maxRecordingMinutes,
      transcriber: services.engines.transcriber,
      jobs: services.jobs,
    }),
    'document-passages': passageJobHandler({
      db: services.db,
      embedder: services.engines.embedder,
    }),
    'entities-import': importJobHandler({ db: services.db, blobs: services.blobs }),
    ocr: ocrJobHandler(services),
    'tenant-export': exportJobHandler(services),
    'tenant-import': importTenantJobHandler(services),
    'tenant-clone': cloneJobHandler(services),
    'review-fill': reviewFillJobHandler(services),
    comparison: comparisonJobHandler(services),
    retention: retentionJobHandler({ db: services.db, blobs: services.blobs }),
  }
}
