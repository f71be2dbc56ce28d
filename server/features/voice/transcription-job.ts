/**
 * The 'transcription' job: copies a recording's audio, streamed, to a private temporary file (so
 * no recording is held whole in memory: issue 24), checks its format and length again, runs
 * the configured Transcriber on that file (progress and cancel through the job), then in one tenant
 * transaction saves the transcript as a document (document_type 'transcript', one line per
 * segment, through insertDocument: audited and indexed like any document), its timed segments
 * with character offsets into that content, its memo summary (key points, decisions, action items,
 * names; server/ai/memo, decision 0056), the recording's new status, and queues the
 * transcript's summary (an 'analysis' job of kind summarize), so that the summary comes whether
 * or not anyone still has the page open. A failure marks the recording 'failed' with a user-safe
 * reason, a cancel 'cancelled'; a server stop leaves it for the retried job.
 */
import { eq } from 'drizzle-orm'
import { recordingSegments, recordings } from '../../db/schema'
import { insertDocument } from '../../documents/document-writes'
import { withTenant, type Principal } from '../../db/tenant'
import { AppError } from '../../errors/app-error'
import { recordAudit } from '../../audit/record-audit'
import { recordEvent } from '../../events/record-event'
import { CancelledError, ShutdownError, jobPrincipal } from '../../jobs/job-runner'
import type { JobHandlerOf } from '../../jobs/define-job-contract'
import type { transcriptionJobContract } from '../../jobs/contracts/transcription-job-contract'
import { analysisJobContract } from '../../jobs/contracts/analysis-job-contract'
import type { AppServices } from '../../services'
import type { Transcriber, Transcript } from '../../ai/speech/types'
import { sniffAudioFile } from '../../media/sniff-audio'
import { assertOrgKey } from '../../blob/blob-keys'
import { withBlobCopy } from '../../documents/with-blob-copy'
import type { MemoSummary } from '../../ai/memo/memo-summary'
import { summarizeMemo } from '../../ai/memo/summarize-memo'
import { checkRecordingLength, MAX_RECORDING_BYTES, type VoiceDeps } from './service'

/** The content of a transcript document and each segment's [start, end) offsets in it. */
export function transcriptContent(
  transcript: Pick<Transcript, 'segments' | 'text' | 'durationSec'>,
) {
  const segments =
    transcript.segments.length > 0 || transcript.text.trim() === ''
      ? transcript.segments
      : [{ start: 0, end: transcript.durationSec, text: transcript.text.trim() }]
  let content = ''
  const placed = segments.map((segment, position) => {
    if (position > 0) content += '\n'
    const startOffset = content.length
    content += segment.text
    return { ...segment, position, startOffset, endOffset: content.length }
  })
  return { content, segments: placed }
}

/** What a transcription needs: the voice feature's, the engine, and the jobs (for the summary). */
type TranscriptionDeps = VoiceDeps & { transcriber: Transcriber; jobs: AppServices['jobs'] }

/**
 * The handler of 'transcription' jobs (input `{ recordingId }`; contract:
 * server/jobs/contracts/transcription-job-contract.ts).
 */
export function transcriptionJobHandler(
  deps: TranscriptionDeps,
): JobHandlerOf<typeof transcriptionJobContract> {
  return {
    async run(job, context) {
      const { recordingId } = job.input
      const principal = jobPrincipal(job)
      const [recording] = await withTenant(deps.db, principal, (tx) =>
        tx.select().from(recordings).where(eq(recordings.id, recordingId)),
      )
      if (!recording) throw new AppError('recording_not_found', 'Recording not found')
      try {
        assertOrgKey(job.orgId, recording.fileKey, 'voice-recordings')
        // The engines read the audio by file: a private copy, streamed from the store (issue 24).
        const transcript = await withBlobCopy(
          deps.blobs,
          recording.fileKey,
          MAX_RECORDING_BYTES,
          async (path) => {
            const audio = { path }
            // Checked again here: recordings stored before the allow-list and the limit existed.
            const format = await sniffAudioFile(path)
            await checkRecordingLength(audio, deps.maxRecordingMinutes, {
              pool: deps.pool,
              signal: context.signal,
            })
            context.progress(0.01, 'Transcribing audio...')
            return deps.transcriber.transcribe(audio, format.mime, {
              maxSeconds: deps.maxRecordingMinutes * 60,
              signal: context.signal,
              onProgress: (fraction, message) => context.progress(0.02 + fraction * 0.95, message),
            })
          },
        )
        if (!transcript) throw new AppError('file_not_found', 'The recording file is missing.')
        const saved = await saveTranscript(deps, principal, recording, transcript)
        return { recordingId, ...saved }
      } catch (error) {
        const reason: unknown = context.signal.aborted ? context.signal.reason : undefined
        // Unexpected errors are retried by the runner while attempts remain; a stop re-queues.
        const final = error instanceof AppError || job.attempts >= job.maxAttempts
        if (!(reason instanceof ShutdownError) && (final || reason)) {
          const cancelled = reason instanceof CancelledError
          await setStatus(
            deps,
            principal,
            recordingId,
            cancelled ? 'cancelled' : 'failed',
            failure(error, cancelled),
          )
        }
        throw error
      }
    },
  }
}

function failure(error: unknown, cancelled: boolean): string | null {
  if (cancelled) return null
  if (error instanceof AppError) return error.detail
  return 'Transcription failed. Try again, or ask an administrator to check the server log.'
}

async function setStatus(
  deps: VoiceDeps,
  principal: Principal,
  recordingId: string,
  status: 'failed' | 'cancelled',
  error: string | null,
) {
  await withTenant(deps.db, principal, (tx) =>
    tx.update(recordings).set({ status, error }).where(eq(recordings.id, recordingId)),
  )
}

/**
 * Saves the transcript with its memo summary and queues its summary job; resolves to the
 * document, the summary job and the memo summary.
 */
async function saveTranscript(
  deps: TranscriptionDeps,
  principal: Principal,
  recording: typeof recordings.$inferSelect,
  transcript: Transcript,
): Promise<{ documentId: string; summaryJobId: string | null; memoSummary: MemoSummary }> {
  const { content, segments } = transcriptContent(transcript)
  // Rule-based and linear in the transcript (a few ms per minute of speech): no job of its own.
  const memoSummary = summarizeMemo(segments)
  return withTenant(deps.db, principal, async (tx) => {
    // Its own event, 'recording.transcribed' below, names the document.
    const document = await insertDocument(deps.jobs, tx, principal, {
      appId: recording.appId,
      title: recording.title,
      content,
      documentType: 'transcript',
      event: null,
    })
    if (segments.length > 0) {
      await tx.insert(recordingSegments).values(
        segments.map((s) => ({
          orgId: principal.orgId,
          appId: recording.appId,
          recordingId: recording.id,
          position: s.position,
          startSec: s.start,
          endSec: s.end,
          text: s.text,
          startOffset: s.startOffset,
          endOffset: s.endOffset,
          confidence: s.confidence ?? null,
        })),
      )
    }
    await tx
      .update(recordings)
      .set({
        status: 'ready',
        error: null,
        documentId: document.id,
        durationSec: transcript.durationSec,
        engine: transcript.engine,
        model: transcript.model,
        memoSummary,
      })
      .where(eq(recordings.id, recording.id))
    await recordAudit(
      tx,
      principal,
      'recording.transcribe',
      { type: 'recording', id: recording.id },
      { documentId: document.id, engine: transcript.engine },
    )
    await recordEvent(
      tx,
      principal,
      'recording.transcribed',
      {
        recordingId: recording.id,
        documentId: document.id,
        durationSec: transcript.durationSec,
        engine: transcript.engine,
      },
      recording.appId,
    )
    // Nothing to summarise when no speech was recognised.
    const summary =
      content.trim().length > 0
        ? await deps.jobs.enqueue(
            tx,
            principal,
            analysisJobContract.kind,
            { documentId: document.id, kind: 'summarize' },
            { subjectId: document.id },
          )
        : null
    return { documentId: document.id, summaryJobId: summary?.id ?? null, memoSummary }
  })
}
