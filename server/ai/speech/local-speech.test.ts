import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppError } from '../../errors/app-error'
import { AUDIO_FORMATS, encodeAudio, spokenWav, type AudioFormat } from '../../test/test-audio'
import { decodeToPcm, PCM_BYTES_PER_SECOND } from './audio'
import { LocalSpeaker } from './local-speaker'
import { LocalTranscriber } from './local-transcriber'
import { withAudioFile } from './with-audio-file'
import { runProcess } from './run-process'
import { SPEECH_MAX_CHARS, speechText } from './types'
import { WorkerPool } from '../../workers/worker-pool'

const SENTENCE = 'The tenant shall pay the rent on the first day of each month.'
const pool = new WorkerPool({ threads: 2 })
afterAll(() => pool.close())
let wav: Buffer
let wavSeconds: number
beforeAll(async () => {
  wav = await spokenWav(SENTENCE)
  wavSeconds = (await decodeToPcm(wav, { pool })).byteLength / PCM_BYTES_PER_SECOND
})

describe('decoding', () => {
  it.each(Object.keys(AUDIO_FORMATS) as AudioFormat[])(
    'decodes %s to 16 kHz mono PCM of the same length',
    async (format) => {
      const pcm = await decodeToPcm(await encodeAudio(wav, format), { pool })
      // Lossy codecs pad a few frames; the length stays within a tenth of a second.
      expect(Math.abs(pcm.byteLength / PCM_BYTES_PER_SECOND - wavSeconds)).toBeLessThan(0.1)
    },
  )

  it.each([
    ['empty', new Uint8Array()],
    ['text', new TextEncoder().encode('This is not audio at all, just words.\n'.repeat(50))],
    ['damaged', (b: Buffer) => b],
  ] as const)('rejects %s input with a 400 bad_audio problem', async (_name, input) => {
    const bytes =
      typeof input === 'function' ? (await encodeAudio(wav, 'mp4')).subarray(0, 400) : input
    const error = await decodeToPcm(bytes, { pool }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AppError)
    expect(error).toMatchObject({ status: 400, code: 'bad_audio' })
  })

  it("runs programs on the pool's slots, counted there and killed at its task timeout", async () => {
    const strict = new WorkerPool({ threads: 1, taskTimeoutMs: 300 })
    try {
      const out = await runProcess('echo', ['on a slot'], { install: 'coreutils', pool: strict })
      expect(out.toString()).toBe('on a slot\n')
      expect(strict.stats()).toMatchObject({ completed: 1, failed: 0 })
      const started = performance.now()
      const error = await runProcess('sleep', ['30'], { install: 'coreutils', pool: strict }).catch(
        (e: unknown) => e,
      )
      expect(error).toMatchObject({ code: 'audio_timeout', status: 422 })
      expect(performance.now() - started).toBeLessThan(5000)
      expect(strict.stats()).toMatchObject({ failed: 1 })
    } finally {
      await strict.close()
    }
  })

  it('names what to install when a program is missing (503, not a crash)', async () => {
    const error = await runProcess('lexdesk-no-such-program', [], {
      install: 'Install the Debian package lexdesk-no-such-program.',
      pool,
    }).catch((e: unknown) => e)
    expect(error).toMatchObject({
      status: 503,
      code: 'engine_unavailable',
      detail: 'Install the Debian package lexdesk-no-such-program.',
    })
  })
})

describe('LocalTranscriber', () => {
  it('returns timed segments within the audio, with the engine and duration', async () => {
    const transcript = await withAudioFile(wav, (audio) =>
      new LocalTranscriber(pool).transcribe(audio, 'audio/wav'),
    )
    expect(transcript).toMatchObject({ language: 'en', engine: 'local' })
    expect(transcript.durationSec).toBeCloseTo(wavSeconds, 1)
    expect(transcript.segments.length).toBeGreaterThan(0)
    expect(transcript.text).toBe(transcript.segments.map((s) => s.text).join(' '))
    for (const segment of transcript.segments) {
      expect(segment.start).toBeGreaterThanOrEqual(0)
      expect(segment.end).toBeGreaterThan(segment.start)
      expect(segment.end).toBeLessThanOrEqual(wavSeconds + 0.05)
      expect(segment.text.trim()).not.toBe('')
    }
  })

  // The ceiling is for a hung transcription, not a speed target: ~20 s of speech recognised in
  // pieces beside another test file on the other core (decision 0097) can pass the default 60 s.
  it('works through long audio in pieces, reporting progress, with times across the whole', async () => {
    const long = await spokenWav(SENTENCE, 6)
    const progress: number[] = []
    const transcript = await withAudioFile(long, (audio) =>
      new LocalTranscriber(pool, { pieceSec: 10 }).transcribe(audio, 'audio/wav', {
        onProgress: (fraction) => progress.push(fraction),
      }),
    )
    expect(transcript.durationSec).toBeGreaterThan(15)
    const pieces = Math.ceil(transcript.durationSec / 10)
    expect(progress.filter((f) => f > 0).length).toBeGreaterThanOrEqual(pieces)
    expect(progress.at(-1)).toBe(1)
    const starts = transcript.segments.map((s) => s.start)
    expect(starts).toEqual([...starts].sort((a, b) => a - b))
    expect(transcript.segments.at(-1)?.end ?? 0).toBeGreaterThan(transcript.durationSec - 10)
  }, 180_000)

  it('stops when cancelled, rejecting with the abort reason', async () => {
    const long = await spokenWav(SENTENCE, 10)
    const controller = new AbortController()
    const started = performance.now()
    setTimeout(() => controller.abort(new Error('cancelled by the test')), 300)
    const error = await withAudioFile(long, (audio) =>
      new LocalTranscriber(pool).transcribe(audio, 'audio/wav', { signal: controller.signal }),
    ).catch((e: unknown) => e)
    expect(error).toMatchObject({ message: 'cancelled by the test' })
    expect(performance.now() - started).toBeLessThan(3000)
  })
})

describe('LocalSpeaker', () => {
  it('speaks text as MP3 that decodes to audio of a plausible length', async () => {
    const { audio, mime } = await new LocalSpeaker(pool).speak('Read this clause aloud, please.')
    expect(mime).toBe('audio/mpeg')
    const seconds = (await decodeToPcm(audio, { pool })).byteLength / PCM_BYTES_PER_SECOND
    expect(seconds).toBeGreaterThan(1)
    expect(seconds).toBeLessThan(6)
  })

  it('falls back to the default voice for a voice name it does not know', async () => {
    const { audio } = await new LocalSpeaker(pool).speak('Hello.', 'xx-unknown')
    expect(audio.byteLength).toBeGreaterThan(1000)
  })

  it('cuts text to 4000 characters, without splitting a character', () => {
    expect(speechText('a'.repeat(5000))).toHaveLength(SPEECH_MAX_CHARS)
    expect(speechText('short')).toBe('short')
    expect(Array.from(speechText('é😀'.repeat(3000)))).toHaveLength(SPEECH_MAX_CHARS)
  })
})
