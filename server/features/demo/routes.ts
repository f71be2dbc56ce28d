/**
 * The public demo's endpoints under /api/demo (no sign-in, nothing stored, outside the tenant API
 * and its OpenAPI document like /api/auth): transcribe a spoken question (≤ 60 s of audio), answer
 * it from Lexdesk's contract glossary through the chat engine (answer-from-glossary.ts), read text aloud, and analyse pasted text (≤ 20,000
 * characters). Every endpoint is rate limited per client address.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { FastifyRequest } from 'fastify'
import { z } from 'zod'
import { AppError } from '../../errors/app-error'
import { AnalysisKind, AnalysisResult } from '../../ai/analyzer/types'
import { orientRisks } from '../../ai/analyzer/orient-risks'
import { problemResponse } from '../../http/problem-responses'
import { clientGoneSignal } from '../../http/client-gone'
import { enforceRateLimit } from '../../http/rate-limited'
import { PCM_BYTES_PER_SECOND, withDecodedPcm } from '../../ai/speech/audio'
import { withAudioFile } from '../../ai/speech/with-audio-file'
import { answerFromGlossary } from './answer-from-glossary'
import type { FeatureContext } from '../../services'

/** Seconds of audio a demo question may last. */
export const DEMO_MAX_AUDIO_SECONDS = 60
/** Characters of text the demo analyses or reads. */
export const DEMO_MAX_TEXT_CHARS = 20_000

/** Requests per client per window across the demo endpoints. */
export interface DemoLimits {
  perClient: number
  windowMs: number
}
export const DEFAULT_DEMO_LIMITS: DemoLimits = { perClient: 30, windowMs: 60_000 }

const DemoText = z
  .string()
  .trim()
  .min(1, 'Please paste a document to analyze')
  .max(DEMO_MAX_TEXT_CHARS, 'The demo reads at most 20,000 characters')

export const demoRoutes: FastifyPluginAsyncZod<FeatureContext> = async (
  app,
  { services: { engines, pool }, tuning },
) => {
  const limits = tuning.demo ?? DEFAULT_DEMO_LIMITS
  const limiter = app.createRateLimit({
    max: limits.perClient,
    timeWindow: limits.windowMs,
    keyGenerator: (req) => `demo:${req.ip}`,
  })
  const rateLimited = (req: FastifyRequest) =>
    enforceRateLimit(
      limiter,
      req,
      (seconds) => `The demo is busy for you: try again in ${seconds} seconds.`,
    )
  const options = { onRequest: rateLimited } as const
  // Hidden from the OpenAPI document, but declared all the same: the serializer then sends only
  // these fields, and every error is a problem.
  const errors = {
    '4xx': problemResponse('Bad input, too long, or rate limited (with Retry-After)'),
    '5xx': problemResponse('The engine failed'),
  }

  app.post(
    '/transcribe',
    {
      ...options,
      bodyLimit: 4 * 1024 * 1024,
      schema: {
        hide: true,
        body: z.object({
          audio: z.string().min(1).describe('Base64 audio (webm, ogg, mp4, wav or mp3)'),
          mimeType: z.string().max(100).default('audio/webm'),
        }),
        response: {
          200: z.object({ transcript: z.string(), durationSec: z.number() }),
          ...errors,
        },
      },
    },
    async (req, reply) => {
      const bytes = Buffer.from(req.body.audio, 'base64')
      // A visitor who leaves stops the decoding and the recogniser, queued or running.
      const signal = clientGoneSignal(reply)
      // The engines take audio by file, as they do a stored recording's copy.
      const transcript = await withAudioFile(bytes, async (audio) => {
        const pcmBytes = await withDecodedPcm(
          audio,
          { pool, signal, maxSeconds: DEMO_MAX_AUDIO_SECONDS + 1 },
          async (pcm) => pcm.byteLength,
        )
        if (pcmBytes / PCM_BYTES_PER_SECOND > DEMO_MAX_AUDIO_SECONDS) {
          throw new AppError('audio_too_long', 'The demo takes questions of up to 60 seconds.')
        }
        return engines.transcriber.transcribe(audio, req.body.mimeType, { signal })
      })
      return { transcript: transcript.text, durationSec: transcript.durationSec }
    },
  )

  app.post(
    '/answer',
    {
      ...options,
      schema: {
        hide: true,
        body: z.object({ question: DemoText }),
        response: {
          200: z.object({
            answer: z.string(),
            answered: z.boolean(),
            sources: z.array(z.object({ id: z.string(), title: z.string() })),
            engine: z.string(),
          }),
          ...errors,
        },
      },
    },
    async (req, reply) => {
      try {
        // A visitor who leaves stops the answer.
        return await answerFromGlossary(engines.chat, req.body.question, clientGoneSignal(reply))
      } catch (error) {
        throw new AppError('analysis_failed', 'Failed to get AI response', {}, error)
      }
    },
  )

  app.post(
    '/speech',
    {
      ...options,
      schema: {
        hide: true,
        body: z.object({ text: DemoText, voice: z.string().max(40).optional() }),
        response: { 200: z.object({ audioContent: z.string() }), ...errors },
      },
    },
    async (req) => {
      const { audio } = await engines.speaker.speak(req.body.text, req.body.voice)
      return { audioContent: Buffer.from(audio).toString('base64') }
    },
  )

  app.post(
    '/analyze',
    {
      ...options,
      schema: {
        hide: true,
        body: z.object({
          documentText: DemoText,
          analysisType: AnalysisKind.exclude(['full']).default('summarize'),
        }),
        response: { 200: z.object({ analysis: AnalysisResult }), ...errors },
      },
    },
    async (req) => {
      try {
        const analysis = await engines.analyzer.analyze(
          req.body.documentText,
          req.body.analysisType,
        )
        // No side is chosen in the demo: each risk names the party that bears it, or mutual.
        const risks = orientRisks(analysis.risks, analysis.keyTerms.parties, null)
        return { analysis: { ...analysis, risks } }
      } catch (error) {
        throw new AppError('analysis_failed', 'Failed to analyze document', {}, error)
      }
    },
  )
}
