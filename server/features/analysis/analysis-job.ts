/**
 * The handler of 'analysis' jobs (contract: server/jobs/contracts/analysis-job-contract.ts): reads a document, runs the configured Analyzer over it (progress and cancel
 * through the job) and stores the analysis; its result is `{ analysisId }`. Every analysis runs
 * through it (startAnalysis), as does a transcript's summary (the transcription job queues it).
 */
import type { JobHandlerOf } from '../../jobs/define-job-contract'
import type { analysisJobContract } from '../../jobs/contracts/analysis-job-contract'
import { jobPrincipal } from '../../jobs/job-runner'
import type { AppServices } from '../../services'
import { analyzeAndStore, readAnalysableDocument } from './service'

/** The 'analysis' handler over the app's database and analyzer. */
export function analysisJobHandler(
  services: Pick<AppServices, 'db' | 'engines'>,
): JobHandlerOf<typeof analysisJobContract> {
  const deps = { db: services.db, analyzer: services.engines.analyzer }
  return {
    async run(job, context) {
      const { input } = job
      const principal = jobPrincipal(job)
      context.progress(0.02, 'Reading the document')
      const document = await readAnalysableDocument(deps.db, principal, input.documentId)
      const row = await analyzeAndStore(deps, principal, document, input.kind, {
        signal: context.signal,
        onProgress: (fraction, message) => context.progress(0.05 + fraction * 0.9, message),
      })
      return { analysisId: row.id }
    },
  }
}
