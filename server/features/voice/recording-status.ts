/**
 * A recording's status from its jobs (decision 0039): the transcription job (`recordings.job_id`)
 * and the summary job the transcription queued (the newest 'analysis' job about the transcript
 * document). While those job records exist they are the truth: queued or running transcription
 * → 'transcribing'; failed or cancelled → so is the recording, with the job's message and code;
 * done with its summary queued or running → 'summarizing'; done → 'ready'. The status the
 * transcription handler wrote on the row is used only once the job records are purged (job
 * retention, JOBS_RETENTION_DAYS).
 */
import { and, desc, eq, inArray } from 'drizzle-orm'
import { jobs, recordings } from '../../db/schema'
import type { Tx } from '../../db/tenant'
import { ACTIVE_STATUSES, toJob, type Job } from '../../jobs/job-service'
import type { ErrorCode } from '../../errors/error-codes'

type RecordingRow = typeof recordings.$inferSelect
export type RecordingStatus = 'transcribing' | 'summarizing' | 'ready' | 'failed' | 'cancelled'

/** The live state of one recording, as its jobs tell it. */
export interface RecordingState {
  status: RecordingStatus
  error: string | null
  errorCode: ErrorCode | null
  summaryJobId: string | null
}

/** The state of a recording just uploaded: its transcription job is queued. */
export const UPLOADED: RecordingState = {
  status: 'transcribing',
  error: null,
  errorCode: null,
  summaryJobId: null,
}

/** The states of `rows` (one tenant's recordings), read in two statements inside `tx`. */
export async function recordingStates(
  tx: Tx,
  rows: RecordingRow[],
): Promise<Map<string, RecordingState>> {
  const jobIds = rows.flatMap((r) => (r.jobId ? [r.jobId] : []))
  const documentIds = rows.flatMap((r) => (r.documentId ? [r.documentId] : []))
  const transcriptions = jobIds.length
    ? await tx.select().from(jobs).where(inArray(jobs.id, jobIds))
    : []
  const summaries = documentIds.length
    ? await tx
        .select()
        .from(jobs)
        .where(and(eq(jobs.kind, 'analysis'), inArray(jobs.subjectId, documentIds)))
        .orderBy(desc(jobs.createdAt), desc(jobs.id))
    : []
  const transcriptionOf = new Map(transcriptions.map((j) => [j.id, toJob(j)]))
  const summaryOf = new Map<string, Job>()
  for (const row of summaries)
    if (row.subjectId && !summaryOf.has(row.subjectId)) summaryOf.set(row.subjectId, toJob(row))
  return new Map(
    rows.map((r) => [
      r.id,
      stateOf(
        r,
        r.jobId ? transcriptionOf.get(r.jobId) : undefined,
        r.documentId ? summaryOf.get(r.documentId) : undefined,
      ),
    ]),
  )
}

function stateOf(row: RecordingRow, transcription?: Job, summary?: Job): RecordingState {
  const summaryJobId = summary?.id ?? null
  if (!transcription)
    return {
      status: row.status as RecordingStatus,
      error: row.error,
      errorCode: null,
      summaryJobId,
    }
  const { status } = transcription
  if (ACTIVE_STATUSES.includes(status))
    return { status: 'transcribing', error: null, errorCode: null, summaryJobId }
  if (status === 'failed' || status === 'cancelled')
    return {
      status,
      error: status === 'failed' ? transcription.error : null,
      errorCode: transcription.errorCode,
      summaryJobId,
    }
  const summarizing = summary !== undefined && ACTIVE_STATUSES.includes(summary.status)
  return {
    status: summarizing ? 'summarizing' : 'ready',
    error: null,
    errorCode: null,
    summaryJobId,
  }
}
