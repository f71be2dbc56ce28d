/**
 * The 'transcription' job's contract: a recording transcribed into a transcript document, its
 * memo summary, and the summary job it queued (none for a recording without speech). Two
 * attempts, for a transcription takes minutes. Run by features/voice/transcription-job.ts.
 */
import { z } from 'zod'
import { MemoSummary } from '../../ai/memo/memo-summary'
import { defineJobContract } from '../define-job-contract'

export const transcriptionJobContract = defineJobContract({
  kind: 'transcription',
  input: z.object({ recordingId: z.string().uuid() }),
  result: z
    .object({
      recordingId: z.string().uuid(),
      documentId: z.string().uuid(),
      // Absent from the results of transcriptions that ran before summaries were queued here.
      summaryJobId: z.string().uuid().nullable().optional(),
      // Absent from the results of transcriptions that ran before memo summaries (decision 0056).
      memoSummary: MemoSummary.optional(),
    })
    .meta({ id: 'TranscriptionJobResult' }),
  maxAttempts: 2,
})
