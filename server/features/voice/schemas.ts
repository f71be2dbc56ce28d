/** Zod schemas of the voice API: they validate requests, type handlers and document OpenAPI. */
import { z } from 'zod'
import { AppId, OrgParams } from '../../http/params'
import { PageQuery, pageOf } from '../../lists/list-kit'
import { jobSchemaOf } from '../../job-schema'
import { ERROR_CODES } from '../../errors/error-codes'
import { MemoSummary } from '../../ai/memo/memo-summary'

/** From the recording's jobs (recording-status.ts): transcription, then its summary. */
export const RecordingStatus = z.enum([
  'transcribing',
  'summarizing',
  'ready',
  'failed',
  'cancelled',
])

export const RecordingSchema = z
  .object({
    id: z.string().uuid(),
    appId: z.string().uuid().nullable().describe('The app it belongs to; null = organisation-wide'),
    title: z.string(),
    mimeType: z.string(),
    sizeBytes: z.number().int(),
    durationSec: z.number().nullable().describe('Seconds of audio, once decoded'),
    status: RecordingStatus,
    error: z.string().nullable().describe('Why transcription failed, when it did'),
    errorCode: z
      .enum(ERROR_CODES)
      .nullable()
      .describe("The transcription job's failure code, when it failed"),
    jobId: z.string().uuid().nullable().describe('The transcription job'),
    summaryJobId: z
      .string()
      .uuid()
      .nullable()
      .describe(
        "The transcript's summary job (an analysis of kind summarize), queued by the server once transcribed",
      ),
    documentId: z
      .string()
      .uuid()
      .nullable()
      .describe("The transcript document (document_type 'transcript'), once transcribed"),
    engine: z.string().nullable(),
    model: z.string().nullable(),
    memoSummary: MemoSummary.nullable().describe(
      "The memo's key points, decisions, action items and names, each citing its segment; null until transcribed",
    ),
    createdBy: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'Recording' })

export const SegmentSchema = z
  .object({
    start: z.number().describe('Seconds from the start of the audio'),
    end: z.number(),
    text: z.string(),
    startOffset: z.number().int().describe("Character offset into the transcript's content"),
    endOffset: z.number().int().describe('Exclusive end offset'),
    confidence: z
      .number()
      .nullable()
      .describe(
        "The speech engine's confidence in the segment, 0..1 (null when the engine gave none, or for a recording transcribed before it was kept)",
      ),
    lowConfidence: z
      .boolean()
      .describe('Whether the confidence is below 0.6: check the segment against the audio'),
  })
  .meta({ id: 'TranscriptSegment' })

export const RecordingDetail = RecordingSchema.extend({
  transcript: z.string().nullable().describe("The transcript document's content"),
  segments: z.array(SegmentSchema),
}).meta({ id: 'RecordingDetail' })

export const RecordingPage = pageOf(RecordingSchema)
export const RecordingListQuery = PageQuery.extend({
  appId: AppId.optional().describe(
    "Only this app's recordings; absent = all of the organisation's",
  ),
})

export const RecordingParams = OrgParams.extend({
  recordingId: z.string().uuid({ message: 'Recording id must be a UUID' }),
})

export const UploadAnswer = z.object({
  recording: RecordingSchema,
  job: jobSchemaOf('transcription'),
})

/** The text fields of a recording upload (uploadRecording checks appId again for other callers). */
export const RecordingUploadFields = z.object({ appId: z.string().optional() })

export const ConsentSchema = z
  .object({
    acknowledgedAt: z
      .string()
      .nullable()
      .describe('When the caller acknowledged the recording-consent notice; null = not yet'),
  })
  .meta({ id: 'VoiceConsent' })

/** A text-to-speech request: text (cut to 4000 characters) and an optional voice name. */
export const SpeechRequest = z.object({
  text: z.string().trim().min(1, 'Give some text to read aloud').max(100_000),
  voice: z
    .string()
    .max(40)
    .optional()
    .describe('Engine voice name (espeak-ng locally, e.g. en-us; alloy … for OpenAI)'),
})

export const SpeechAnswer = z
  .object({ audioContent: z.string().describe('Base64 MP3') })
  .meta({ id: 'SpeechAudio' })
