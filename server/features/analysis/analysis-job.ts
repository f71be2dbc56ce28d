/**
 * The 'analysis' job: reads a document, runs the configured Analyzer over it (progress and cancel
 * through the job) and stores the analysis; its result is `{ analysisId }`. Every analysis runs
 * through it (startAnalysis), as does a transcript's summary (the transcription job queues it).
 */
import { z } from 'zod'
import { AnalysisKind } from '../../ai/analyzer/types'
import { defineJob } from '../../jobs/define-job'
import { jobPrincipal } from '../../jobs/job-runner'
import type { AppServices } from '../../services'
import { analyzeAndStore, readAnalysableDocument } from './service'

export const analysisJob = defineJob({
  kind: 'analysis',
  input: z.object({
    documentId: z.string().uuid(),
    kind: AnalysisKind,
  }),
  result: z.object({ analysisId: z.string().uuid() }).meta({ id: 'AnalysisJobResult' }),
  handler: (services: AppServices) => {
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
  },
})
