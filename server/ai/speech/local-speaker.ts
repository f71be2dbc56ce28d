/**
 * The local text-to-speech engine: espeak-ng (Debian package espeak-ng) synthesises a WAV from
 * text given on its standard input, and ffmpeg encodes it to MP3 (64 kbit/s mono); both run on
 * slots of the shared worker pool (runProcess).
 */
import { AppError } from '../../errors/app-error'
import { FFMPEG_INSTALL } from './audio'
import type { WorkerPool } from '../../workers/worker-pool'
import { ProcessFailure, runProcess } from './run-process'
import { speechText, type Speaker } from './types'

const INSTALL =
  'Speech synthesis needs espeak-ng, which is not installed on the server: install the Debian package espeak-ng (node scripts/ensure-system.mjs app), or set AI_TTS_ENGINE=openai with AI_BASE_URL and AI_TTS_MODEL.'

/** espeak-ng voice names look like `en-us` or `en-gb-x-rp`; anything else means the default. */
const ESPEAK_VOICE = /^[a-z]{2,3}(-[a-z0-9]{1,8})*$/

export class LocalSpeaker implements Speaker {
  constructor(private readonly pool: WorkerPool) {}

  async speak(text: string, voice?: string): Promise<{ audio: Uint8Array; mime: string }> {
    const chosen = voice && ESPEAK_VOICE.test(voice) ? voice : 'en-us'
    try {
      const synthesise = (name: string) =>
        runProcess('espeak-ng', ['--stdout', '-v', name, '-s', '165'], {
          stdin: new TextEncoder().encode(speechText(text)),
          install: INSTALL,
          pool: this.pool,
        })
      // An unknown voice name makes espeak-ng fail: speak with the default voice instead.
      const wav = await synthesise(chosen).catch((error: unknown) => {
        if (error instanceof ProcessFailure && chosen !== 'en-us') return synthesise('en-us')
        throw error
      })
      const mp3 = await runProcess(
        'ffmpeg',
        [
          '-hide_banner',
          '-nostdin',
          '-v',
          'error',
          // Only espeak-ng's WAV on standard input, like every other ffmpeg input (audio.ts).
          '-protocol_whitelist',
          'pipe',
          '-f',
          'wav',
          '-i',
          'pipe:0',
          '-ac',
          '1',
          '-codec:a',
          'libmp3lame',
          '-b:a',
          '64k',
          '-f',
          'mp3',
          'pipe:1',
        ],
        { stdin: wav, install: FFMPEG_INSTALL, pool: this.pool },
      )
      return { audio: new Uint8Array(mp3), mime: 'audio/mpeg' }
    } catch (error) {
      if (!(error instanceof ProcessFailure)) throw error
      throw new AppError(
        'speech_failed',
        'Speech synthesis failed. Try again, or ask an administrator to check the server log.',
        {},
        error,
      )
    }
  }
}
