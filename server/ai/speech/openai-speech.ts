/**
 * Speech engines for any OpenAI-compatible audio API: `/v1/audio/transcriptions` with
 * `response_format: verbose_json` (OpenAI Whisper, whisper.cpp's server, faster-whisper servers,
 * LocalAI) and `/v1/audio/speech` (MP3). A provider failure becomes a 502 `speech_failed` problem
 * whose detail never repeats the provider's own message (it may name internal hosts).
 */
import { openAsBlob } from 'node:fs'
import OpenAI from 'openai'
import { AppError } from '../../errors/app-error'
import { sniffAudioFile } from '../../media/sniff-audio'
import {
  speechText,
  type AudioFile,
  type Speaker,
  type Transcriber,
  type TranscribeOptions,
  type Transcript,
} from './types'

/** Per-request timeout: transcribing an hour on a remote server can take several minutes. */
const TIMEOUT_MS = 15 * 60_000

export interface OpenAISpeechOptions {
  baseURL: string
  apiKey?: string
  model: string
}

function client(options: OpenAISpeechOptions): OpenAI {
  // The SDK insists on a key; self-hosted endpoints usually ignore it. No silent retries.
  return new OpenAI({
    baseURL: options.baseURL,
    apiKey: options.apiKey || 'not-needed',
    maxRetries: 0,
    timeout: TIMEOUT_MS,
  })
}

function providerFailed(what: string, cause: unknown): AppError {
  return new AppError(
    'speech_failed',
    `The ${what} service failed. Try again, or ask an administrator to check the server log.`,
    {},
    cause,
  )
}

export class OpenAITranscriber implements Transcriber {
  private readonly client: OpenAI
  constructor(private readonly options: OpenAISpeechOptions) {
    this.client = client(options)
  }

  /**
   * Streams the file `audio` to the provider: a File over a file-backed Blob (fs.openAsBlob),
   * which fetch reads as it sends, so the recording is never held whole in memory.
   */
  async transcribe(
    audio: AudioFile,
    _mime: string,
    options: TranscribeOptions = {},
  ): Promise<Transcript> {
    // The provider may hand the file to its own ffmpeg: only allowed formats leave, named by
    // their sniffed type, never by the claimed one.
    const format = await sniffAudioFile(audio.path)
    options.onProgress?.(0, 'Sending the audio to the transcription service')
    let answer: OpenAI.Audio.TranscriptionVerbose
    try {
      answer = await this.client.audio.transcriptions.create(
        {
          // A File as such: the SDK's toFile would read a Blob into memory first.
          file: new File([await openAsBlob(audio.path)], `audio.${format.ext}`, {
            type: format.mime,
          }),
          model: this.options.model,
          response_format: 'verbose_json',
          timestamp_granularities: ['segment'],
        },
        { signal: options.signal },
      )
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason
      throw providerFailed('transcription', error)
    }
    const segments = (answer.segments ?? [])
      .map((s) => ({
        start: s.start,
        end: s.end,
        text: s.text.trim(),
        // The segment's average token log-probability as a probability, 0..1.
        confidence: Math.round(Math.min(1, Math.exp(s.avg_logprob)) * 1000) / 1000,
      }))
      .filter((s) => s.text.length > 0)
    options.onProgress?.(1, 'Transcribed')
    return {
      text:
        segments.length > 0 ? segments.map((s) => s.text).join(' ') : (answer.text ?? '').trim(),
      segments,
      language: answer.language ?? 'en',
      engine: 'openai',
      model: this.options.model,
      durationSec: answer.duration ?? segments.at(-1)?.end ?? 0,
    }
  }
}

/** OpenAI's voices; other names go to the provider unchanged (self-hosted servers have their own). */
const DEFAULT_VOICE = 'alloy'

export class OpenAISpeaker implements Speaker {
  private readonly client: OpenAI
  constructor(private readonly options: OpenAISpeechOptions) {
    this.client = client(options)
  }

  async speak(text: string, voice?: string): Promise<{ audio: Uint8Array; mime: string }> {
    try {
      const response = await this.client.audio.speech.create({
        model: this.options.model,
        voice: voice ?? DEFAULT_VOICE,
        input: speechText(text),
        response_format: 'mp3',
      })
      return { audio: new Uint8Array(await response.arrayBuffer()), mime: 'audio/mpeg' }
    } catch (error) {
      throw providerFailed('speech', error)
    }
  }
}
