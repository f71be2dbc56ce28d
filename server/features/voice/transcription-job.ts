/**
 * The 'transcription' job: reads a recording's audio, checks its format and length again, runs the configured Transcriber (progress
 * and cancel through the job), then in one tenant transaction saves the transcript as a document
 * (document_type 'transcript', one line per segment, through insertDocument: audited and
 * indexed like any document), its timed segments with character offsets
 * into that content, and the recording's new status. A failure marks the recording 'failed' with
 * a user-safe reason, a cancel 'cancelled'; a server stop leaves it for the retried job.
 */
import { eq } from 'drizzle-orm'
import { recordingSegments, recordings } from '../../db/schema'
import { insertDocument } from '../../documents/document-writes'
import { withTenant, type Principal } from '../../db/tenant'
import { AppError } from '../../errors/app-error'
import { recordAudit } from '../../audit/record-audit'
import { recordEvent } from '../../events/record-event'
import { CancelledError, ShutdownError, jobPrincipal, type JobHandler } from '../../jobs/job-runner'
import type { Transcriber, Transcript } from '../../ai/speech/types'
import { sniffAudio } from '../../ai/speech/sniff-audio'
import { checkRecordingLength, TRANSCRIPTION_JOB, type VoiceDeps } from './service'

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

/** The handler of 'transcription' jobs (input `{ recordingId }`). */
export function transcriptionJobHandler(
  deps: VoiceDeps & { transcriber: Transcriber },
): JobHandler {
  return {
    kind: TRANSCRIPTION_JOB,
    async run(job, context) {
      const { recordingId } = job.input as { recordingId: string }
      const principal = jobPrincipal(job)
      const [recording] = await withTenant(deps.db, principal, (tx) =>
        tx.select().from(recordings).where(eq(recordings.id, recordingId)),
      )
      if (!recording) throw new AppError('recording_not_found', 'Recording not found')
      try {
        const blob = await deps.blobs.get(recording.fileKey)
        if (!blob) throw new AppError('file_not_found', 'The recording file is missing.')
        // Checked again here: recordings stored before the allow-list and the limit existed.
        const format = await sniffAudio(blob.data)
        await checkRecordingLength(blob.data, deps.maxRecordingMinutes, {
          pool: deps.pool,
          signal: context.signal,
        })
        context.progress(0.01, 'Transcribing audio...')
        const transcript = await deps.transcriber.transcribe(blob.data, format.mime, {
          maxSeconds: deps.maxRecordingMinutes * 60,
          signal: context.signal,
          onProgress: (fraction, message) => context.progress(0.02 + fraction * 0.95, message),
        })
        const documentId = await saveTranscript(deps, principal, recording, transcript)
        return { recordingId, documentId }
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

async function saveTranscript(
  deps: VoiceDeps,
  principal: Principal,
  recording: typeof recordings.$inferSelect,
  transcript: Transcript,
): Promise<string> {
  const { content, segments } = transcriptContent(transcript)
  return withTenant(deps.db, principal, async (tx) => {
    // Its own event, 'recording.transcribed' below, names the document.
    const document = await insertDocument(tx, principal, {
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
    return document.id
  })
}
