/**
 * Voice recordings: upload (validated by decoding, stored through the BlobStore, transcribed by a
 * background job), list, read with the transcript's timed segments, play and delete; and the
 * recording-consent acknowledgement. The audio lives at
 * `orgs/{orgId}/voice-recordings/{userId}/{timestamp}.{ext}` (bucket `voice-recordings` of the
 * organisation; `.webm` for browser recordings).
 */
import { asc, desc, eq } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { documents, recordingSegments, recordings, voiceConsents } from '../../db/schema'
import { withTenant, type Principal } from '../../db/tenant'
import { readPage } from '../../lists/list-kit'
import { AppError, notFound } from '../../errors/app-error'
import { AppId } from '../../http/params'
import { isForeignKeyViolation } from '../../db/constraint-violation'
import { assertCreatorOrAdmin } from '../../db/assert-creator-or-admin'
import { recordAudit } from '../../audit/record-audit'
import { recordEvent } from '../../events/record-event'
import type { JobOfKind } from '../../jobs/job-service'
import type { AppServices } from '../../services'
import type { BlobStore } from '../../blob/blob-store'
import { assertOrgKey, orgBlobKey } from '../../blob/blob-keys'
import { readBlob } from '../../blob/read-blob'
import { removeRecording, removeRecordingFiles } from '../../documents/recording-writes'
import { audioSeconds, decodeToPcm, type AudioInput } from '../../ai/speech/audio'
import type { SpooledUpload } from '../../uploads/spool-upload'
import { sniffAudio } from '../../media/sniff-audio'
import { MemoSummary } from '../../ai/memo/memo-summary'
import { transcriptionJobContract } from '../../jobs/contracts/transcription-job-contract'
import type { WorkerPool } from '../../workers/worker-pool'
import { recordingStates, type RecordingState } from './recording-status'

type RecordingRow = typeof recordings.$inferSelect
/** `maxRecordingMinutes`: the longest recording accepted (MAX_RECORDING_MINUTES). */
export type VoiceDeps = { db: Db; blobs: BlobStore; pool: WorkerPool; maxRecordingMinutes: number }

/** The job kind that transcribes a recording. */
export const TRANSCRIPTION_JOB = transcriptionJobContract.kind

/** Seconds decoded at upload to tell audio from damaged files (the rest is only demuxed). */
const CHECK_SECONDS = 30

/** The 413 problem of a recording longer than `maxMinutes`. */
export function recordingTooLong(maxMinutes: number): AppError {
  const limit = `${maxMinutes} minute${maxMinutes === 1 ? '' : 's'}`
  return new AppError(
    'audio_too_long',
    `The recording is longer than ${limit}, the longest this server transcribes (MAX_RECORDING_MINUTES). Split it, or ask an administrator to raise the limit.`,
  )
}

/**
 * Seconds of audio in `audio`, read up to just past the limit; throws 413 `audio_too_long`
 * past `maxMinutes`, 400 `bad_audio` for what is not audio of an allowed format.
 */
export async function checkRecordingLength(
  audio: AudioInput,
  maxMinutes: number,
  options: { pool: WorkerPool; signal?: AbortSignal },
): Promise<number> {
  const seconds = await audioSeconds(audio, { ...options, maxSeconds: maxMinutes * 60 + 1 })
  if (seconds > maxMinutes * 60) throw recordingTooLong(maxMinutes)
  return seconds
}

/** The 404 that hides whether another organisation's recording exists. */
export function recordingNotFound(): AppError {
  return new AppError('recording_not_found', 'Recording not found')
}

/** The API shape of a recording row, with its status from its jobs (recording-status.ts). */
export function toRecording(row: RecordingRow, state: RecordingState) {
  return {
    id: row.id,
    appId: row.appId,
    title: row.title,
    mimeType: row.mimeType,
    sizeBytes: row.sizeBytes,
    durationSec: row.durationSec,
    status: state.status,
    error: state.error,
    errorCode: state.errorCode,
    jobId: row.jobId,
    summaryJobId: state.summaryJobId,
    documentId: row.documentId,
    engine: row.engine,
    model: row.model,
    // Recordings transcribed before memo summaries existed have none.
    memoSummary: MemoSummary.nullable()
      .catch(null)
      .parse(row.memoSummary ?? null),
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
  }
}

/** When the principal acknowledged the consent notice in this organisation, or null. */
export async function getConsent(db: Db, principal: Principal): Promise<Date | null> {
  const [row] = await withTenant(db, principal, (tx) =>
    tx
      .select({ at: voiceConsents.acknowledgedAt })
      .from(voiceConsents)
      .where(eq(voiceConsents.userId, principal.userId ?? ''))
      .limit(1),
  )
  return row?.at ?? null
}

/** Records the principal's acknowledgement (once; later calls return the first one). Audited. */
export async function acknowledgeConsent(db: Db, principal: Principal): Promise<Date> {
  const userId = principal.userId
  if (!userId) throw new AppError('forbidden', 'Only a person can acknowledge the notice.')
  return withTenant(db, principal, async (tx) => {
    const [inserted] = await tx
      .insert(voiceConsents)
      .values({ orgId: principal.orgId, userId })
      .onConflictDoNothing()
      .returning()
    if (inserted) {
      await recordAudit(tx, principal, 'voice.consent', { type: 'voice_consent', id: inserted.id })
      return inserted.acknowledgedAt
    }
    const [existing] = await tx
      .select({ at: voiceConsents.acknowledgedAt })
      .from(voiceConsents)
      .where(eq(voiceConsents.userId, userId))
    if (!existing) throw new Error('consent neither inserted nor found')
    return existing.at
  })
}

let lastRecordingTime = 0

/**
 * The timestamp (epoch ms) naming a new recording's file: the clock's, or one past the last one
 * given when the clock has not moved on, so two recordings one person starts in the same
 * millisecond (two tabs, an API client) never share, overwrite or delete one file. Unique within
 * this process; several processes on one PostgreSQL could still meet in one millisecond.
 */
function recordingTime(): number {
  lastRecordingTime = Math.max(Date.now(), lastRecordingTime + 1)
  return lastRecordingTime
}

/**
 * Where a recording upload starting with `head` is stored and as what type (the upload route's
 * spoolSink target, so refusals come before anything is stored): the spec's
 * `<userId>/<timestamp>.<ext>` (recordingTime), the media type and extension from the bytes
 * (sniffAudio), never from the client's claim. Throws 403 `forbidden` for a credential that is
 * not a person, 403 `consent_required` before the notice is acknowledged, 400 `bad_audio` for
 * empty or non-audio bytes or a format outside the allow-list.
 */
export async function recordingTarget(
  db: Db,
  principal: Principal,
  head: Uint8Array,
): Promise<{ key: string; contentType: string }> {
  const userId = principal.userId
  if (!userId) throw new AppError('forbidden', 'Only a person can record.')
  if (!(await getConsent(db, principal))) {
    throw new AppError(
      'consent_required',
      'Acknowledge the recording-consent notice before the first recording.',
    )
  }
  const format = await sniffAudio(head)
  const name = `${recordingTime()}.${format.ext}`
  const key = orgBlobKey(principal.orgId, 'voice-recordings', userId, name)
  return { key, contentType: format.mime }
}

/**
 * Keeps an uploaded recording, already in the store under the key recordingTarget chose (ffmpeg
 * reads it by path: spool-upload.ts), and queues its transcription. Throws 400 `bad_audio` for
 * damaged audio, 413 `audio_too_long` past MAX_RECORDING_MINUTES, 404 for another organisation's
 * app, 503 when ffmpeg is missing; `signal` (the client went away) stops the decoding check. On
 * any failure the stored file is deleted: nothing is kept.
 */
export async function uploadRecording(
  deps: VoiceDeps & { jobs: AppServices['jobs'] },
  principal: Principal,
  input: { file: SpooledUpload; appId?: string },
  signal?: AbortSignal,
): Promise<{ recording: RecordingRow; job: JobOfKind<typeof transcriptionJobContract> }> {
  const { file } = input
  try {
    const appId = input.appId ? AppId.safeParse(input.appId) : undefined
    if (appId && !appId.success)
      throw new AppError('validation_failed', 'appId must be an app id (UUID)')
    const copy = { path: file.path }
    await decodeToPcm(copy, { pool: deps.pool, signal, maxSeconds: CHECK_SECONDS })
    await checkRecordingLength(copy, deps.maxRecordingMinutes, { pool: deps.pool, signal })
    const now = new Date()
    return await withTenant(deps.db, principal, async (tx) => {
      const [row] = await tx
        .insert(recordings)
        .values({
          orgId: principal.orgId,
          appId: appId?.data ?? null,
          title: `Voice memo ${now.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
          fileKey: file.key,
          mimeType: file.contentType,
          sizeBytes: file.size,
          createdBy: principal.userId,
        })
        .returning()
      if (!row) throw new Error('insert returned no row')
      const job = await deps.jobs.enqueue(
        tx,
        principal,
        TRANSCRIPTION_JOB,
        { recordingId: row.id },
        { subjectId: row.id },
      )
      const [recording] = await tx
        .update(recordings)
        .set({ jobId: job.id })
        .where(eq(recordings.id, row.id))
        .returning()
      await recordAudit(tx, principal, 'recording.create', { type: 'recording', id: row.id })
      await recordEvent(tx, principal, 'recording.uploaded', { recordingId: row.id }, row.appId)
      return { recording: recording ?? row, job }
    })
  } catch (error) {
    await deps.blobs.delete(file.key)
    // The composite (org_id, app_id) reference admits only the organisation's own apps.
    if (isForeignKeyViolation(error, 'recordings_app_fk')) throw notFound('App')
    throw error
  }
}

/** The organisation's recordings (or one app's, decision 8), newest first. */
export async function listRecordings(
  db: Db,
  principal: Principal,
  query: { limit: number; offset: number; appId?: string },
) {
  const page = query
  const where = query.appId ? eq(recordings.appId, query.appId) : undefined
  const { rows, total } = await readPage(db, principal, recordings, {
    where,
    orderBy: [desc(recordings.createdAt), desc(recordings.id)],
    limit: page.limit,
    offset: page.offset,
  })
  const states = await withTenant(db, principal, (tx) => recordingStates(tx, rows))
  return { items: rows.map((row) => toRecording(row, states.get(row.id)!)), total }
}

/**
 * Below this confidence (0..1) a segment is flagged as heard with low confidence, to be checked
 * against the audio (issue 43: synthetic speech came out as nonsense without a warning). A first
 * setting: PocketSphinx gives well-heard words posteriors above 0.8 and Whisper's e^avg_logprob of
 * clear speech is about 0.8–0.95; a segment averaging under 0.6 is a guess more than a hearing.
 */
export const LOW_CONFIDENCE = 0.6

/** One recording with its transcript and timed segments; 404 when it is not the org's. */
export async function getRecording(db: Db, principal: Principal, id: string) {
  return withTenant(db, principal, async (tx) => {
    const [row] = await tx.select().from(recordings).where(eq(recordings.id, id))
    if (!row) throw recordingNotFound()
    const [document] = row.documentId
      ? await tx
          .select({ content: documents.content })
          .from(documents)
          .where(eq(documents.id, row.documentId))
      : []
    const segments = await tx
      .select()
      .from(recordingSegments)
      .where(eq(recordingSegments.recordingId, id))
      .orderBy(asc(recordingSegments.position))
    const states = await recordingStates(tx, [row])
    return {
      ...toRecording(row, states.get(row.id)!),
      transcript: document?.content ?? null,
      segments: segments.map((s) => ({
        start: s.startSec,
        end: s.endSec,
        text: s.text,
        startOffset: s.startOffset,
        endOffset: s.endOffset,
        confidence: s.confidence,
        lowConfidence: s.confidence !== null && s.confidence < LOW_CONFIDENCE,
      })),
    }
  })
}

/** Upload limit of one recording: 100 MB (an hour of browser Opus is about 15 MB). */
export const MAX_RECORDING_BYTES = 100 * 1024 * 1024

/** Bytes of a recording's start that tell its format (file-type reads at most this many). */
const SNIFF_BYTES = 64 * 1024

/**
 * Where a recording's audio is stored (`key`, checked to be the organisation's) and the type to
 * send it as, sniffed again from its first bytes rather than read from storage: a recording
 * stored before the allow-list with a claimed type such as text/html is then sent as
 * `application/octet-stream` (as an attachment). 404 when it is not the org's or its file is gone.
 */
export async function getRecordingAudio(deps: VoiceDeps, principal: Principal, id: string) {
  const [row] = await withTenant(deps.db, principal, (tx) =>
    tx.select({ fileKey: recordings.fileKey }).from(recordings).where(eq(recordings.id, id)),
  )
  if (!row) throw recordingNotFound()
  assertOrgKey(principal.orgId, row.fileKey, 'voice-recordings')
  const head = await deps.blobs.head(row.fileKey)
  if (!head) throw recordingNotFound()
  const start =
    head.size > 0
      ? await readBlob(deps.blobs, row.fileKey, SNIFF_BYTES, {
          start: 0,
          end: Math.min(head.size, SNIFF_BYTES) - 1,
        })
      : null
  const format = await sniffAudio(start?.data ?? new Uint8Array()).catch(() => undefined)
  return {
    key: row.fileKey,
    contentType: format?.mime ?? 'application/octet-stream',
    fileName: `recording-${id}.${format?.ext ?? 'bin'}`,
  }
}

/**
 * Deletes a recording, its segments (cascade), its transcript document (removeDocument) and its
 * audio file.
 * Members delete only their own recordings (403 `not_recording_creator`); admins any.
 */
export async function deleteRecording(deps: VoiceDeps, principal: Principal, id: string) {
  const removed = await withTenant(deps.db, principal, (tx) =>
    removeRecording(tx, principal, id, {
      authorize: (row) =>
        assertCreatorOrAdmin(principal, row.createdBy, {
          code: 'not_recording_creator',
          detail: 'Members can delete only their own recordings; ask an admin to delete this one.',
        }),
    }),
  )
  if (!removed) throw recordingNotFound()
  await removeRecordingFiles(deps.blobs, removed)
}
