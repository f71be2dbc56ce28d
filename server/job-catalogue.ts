/**
 * Every job kind of the server, in one list (decision 0039): the composition binds them to the
 * app's services (app.ts), the runner claims only these kinds, `enqueue` is typed by them, and
 * the OpenAPI Job schema enumerates their kinds and results. A new kind is a `defineJob` next to
 * its feature and one line here.
 */
import { analysisJob } from './features/analysis/analysis-job'
import { importJob } from './features/entities/import-csv'
import { transcriptionJob } from './features/voice/transcription-job'
import { chunkJob } from './search/index-document'
import { ocrJob } from './features/documents/ocr-job'
import { exportJob } from './features/tenants/export-job'
import { importTenantJob } from './features/tenants/import-job'
import { cloneJob } from './features/tenants/clone-job'

export const JOB_CATALOGUE = [
  analysisJob,
  transcriptionJob,
  chunkJob,
  importJob,
  ocrJob,
  exportJob,
  importTenantJob,
  cloneJob,
] as const

/** The type of the catalogue: what `JobRunner.enqueue` is typed by. */
export type AppJobCatalogue = typeof JOB_CATALOGUE
