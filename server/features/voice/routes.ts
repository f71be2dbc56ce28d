/**
 * HTTP routes of the voice feature: recording-consent acknowledgement, recording upload (202 with
 * the transcription job), list, detail with timed segments, audio playback (byte ranges), delete,
 * and text to speech (`{ audioContent }`, base64 MP3). Logic lives in service.ts.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { principalOf } from '../../auth/principal'
import type { FeatureContext } from '../../services'
import { OrgParams } from '../../http/params'
import { readMultipart } from '../../uploads/read-multipart'
import { releaseSpool, spooled, spoolSink } from '../../uploads/spool-upload'
import { sendBlob } from '../../blob/send-blob'
import {
  ConsentSchema,
  RecordingDetail,
  RecordingListQuery,
  RecordingPage,
  RecordingParams,
  RecordingUploadFields,
  SpeechAnswer,
  SpeechRequest,
  UploadAnswer,
} from './schemas'
import {
  acknowledgeConsent,
  deleteRecording,
  getConsent,
  getRecording,
  getRecordingAudio,
  listRecordings,
  MAX_RECORDING_BYTES,
  recordingNotFound,
  recordingTarget,
  toRecording,
  uploadRecording,
} from './service'
import { UPLOADED } from './recording-status'
import { streamResponse } from '../../http/stream-responses'
import { problemResponse } from '../../http/problem-responses'
import { deleteRoute } from '../../http/delete-route'
import { clientGoneSignal } from '../../http/client-gone'

export const voiceRoutes: FastifyPluginAsyncZod<FeatureContext> = async (app, { services }) => {
  const deps = {
    db: services.db,
    blobs: services.blobs,
    pool: services.pool,
    maxRecordingMinutes: services.limits.maxRecordingMinutes,
    jobs: services.jobs,
  }

  app.get(
    '/orgs/:orgId/voice/consent',
    {
      schema: {
        operationId: 'getVoiceConsent',
        tags: ['voice'],
        params: OrgParams,
        response: { 200: ConsentSchema },
      },
      config: { minRole: 'member' },
    },
    async (req) => {
      const at = await getConsent(services.db, principalOf(req))
      return { acknowledgedAt: at?.toISOString() ?? null }
    },
  )

  app.post(
    '/orgs/:orgId/voice/consent',
    {
      schema: {
        operationId: 'acknowledgeConsent',
        tags: ['voice'],
        description:
          'Records that the caller has read the notice that everyone recorded must be told; needed once per organisation before the first recording.',
        params: OrgParams,
        response: { 200: ConsentSchema },
      },
      config: { minRole: 'member' },
    },
    async (req) => {
      const at = await acknowledgeConsent(services.db, principalOf(req))
      return { acknowledgedAt: at.toISOString() }
    },
  )

  app.post(
    '/orgs/:orgId/recordings',
    {
      schema: {
        operationId: 'uploadRecording',
        tags: ['voice'],
        description:
          'multipart/form-data with `file` and an optional `appId` (an app of the organisation, 404 otherwise): a recording in WAV, WebM/Matroska, Ogg, MP4/M4A, MP3 or FLAC, at most 100 MB (413 `file_too_large`, chunked or not) and MAX_RECORDING_MINUTES long (413 `audio_too_long`). The format is told from the bytes, never from the claimed type. Stored in the bucket voice-recordings as `{userId}/{timestamp}.{ext}` and transcribed by a background job (202 with the recording and the job; follow the job with getJob or the `follow` message of openRealtime). 400 `bad_audio` for empty, damaged or non-audio files and other formats (playlists included; nothing is stored), 403 `consent_required` before the consent notice is acknowledged, 503 when the speech engine is not installed.',
        consumes: ['multipart/form-data'],
        params: OrgParams,
        response: { 202: UploadAnswer },
      },
      config: { minRole: 'member' },
    },
    async (req, reply) => {
      // The claimed media type is ignored: uploadRecording sniffs the bytes.
      const principal = principalOf(req)
      // Streamed into the store as it arrives, typed from its first bytes; ffmpeg reads the
      // stored file, or a private copy on a store without local files (spool-upload.ts).
      const { file, fields } = await readMultipart(req, {
        maxBytes: MAX_RECORDING_BYTES,
        fields: RecordingUploadFields,
        sink: spoolSink(services.blobs, (head) => recordingTarget(services.db, principal, head)),
        missing: 'Send the recording as the multipart field "file".',
      })
      const upload = spooled(file)
      try {
        // A client that leaves stops the upload's decoding check, queued or running.
        const gone = clientGoneSignal(reply)
        const { recording, job } = await uploadRecording(
          deps,
          principal,
          { file: upload, appId: fields.appId },
          gone,
        )
        return await reply.status(202).send({ recording: toRecording(recording, UPLOADED), job })
      } finally {
        await releaseSpool(upload)
      }
    },
  )

  app.get(
    '/orgs/:orgId/recordings',
    {
      schema: {
        operationId: 'listRecordings',
        tags: ['voice'],
        params: OrgParams,
        querystring: RecordingListQuery,
        response: { 200: RecordingPage },
      },
      config: { minRole: 'member' },
    },
    (req) => listRecordings(services.db, principalOf(req), req.query),
  )

  app.get(
    '/orgs/:orgId/recordings/:recordingId',
    {
      schema: {
        operationId: 'getRecording',
        tags: ['voice'],
        params: RecordingParams,
        response: { 200: RecordingDetail },
      },
      config: { minRole: 'member' },
    },
    (req) => getRecording(services.db, principalOf(req), req.params.recordingId),
  )

  app.get(
    '/orgs/:orgId/recordings/:recordingId/audio',
    {
      schema: {
        operationId: 'playRecording',
        tags: ['voice'],
        description:
          "The recorded audio, as the audio type sniffed from its bytes, inline, with `X-Content-Type-Options: nosniff` and `Content-Security-Policy: default-src 'none'; sandbox`; honours a single `Range: bytes=…` request (206).",
        params: RecordingParams,
        response: {
          200: streamResponse('The whole recording', ['audio/*']),
          206: streamResponse('The requested byte range', ['audio/*']),
          416: problemResponse('The range is outside the recording'),
        },
      },
      config: { minRole: 'member' },
    },
    async (req, reply) => {
      const audio = await getRecordingAudio(deps, principalOf(req), req.params.recordingId)
      return sendBlob(req, reply, deps.blobs, {
        ...audio,
        inline: true,
        missing: recordingNotFound,
      })
    },
  )

  deleteRoute(
    app,
    '/orgs/:orgId/recordings/:recordingId',
    {
      operationId: 'deleteRecording',
      tags: ['voice'],
      description:
        'Deletes the recording, its audio, its segments and its transcript document, and stops its transcription if it is still waiting or running. Members delete only their own recordings (403 `not_recording_creator`); admins any.',
      params: RecordingParams,
      minRole: 'member',
    },
    (params, req) => deleteRecording(deps, principalOf(req), params.recordingId),
  )

  app.post(
    '/orgs/:orgId/speech',
    {
      schema: {
        operationId: 'synthesizeSpeech',
        tags: ['voice'],
        description:
          'Reads text aloud with the configured text-to-speech engine; text past 4000 characters is cut. 503 when the engine is not installed.',
        params: OrgParams,
        body: SpeechRequest,
        response: { 200: SpeechAnswer },
      },
      bodyLimit: 512 * 1024,
      config: { minRole: 'member', scope: 'read' },
    },
    async (req) => {
      const { audio } = await services.engines.speaker.speak(req.body.text, req.body.voice)
      return { audioContent: Buffer.from(audio).toString('base64') }
    },
  )
}
