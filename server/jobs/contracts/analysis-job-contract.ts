/**
 * The 'analysis' job's contract: the configured Analyzer over one document, of one analysis kind;
 * its result names the stored analysis. Queued by the analysis routes and by a transcription (the
 * transcript's summary); run by features/analysis/analysis-job.ts.
 */
import { z } from 'zod'
import { AnalysisKind } from '../../ai/analyzer/types'
import { defineJobContract } from '../define-job-contract'

export const analysisJobContract = defineJobContract({
  kind: 'analysis',
  input: z.object({
    documentId: z.string().uuid(),
    kind: AnalysisKind,
  }),
  result: z.object({ analysisId: z.string().uuid() }).meta({ id: 'AnalysisJobResult' }),
})
