/**
 * Audio decoding with ffmpeg: any format it reads (webm/opus, ogg, mp4/aac, wav, mp3, …) to
 * 16 kHz mono signed 16-bit little-endian PCM, the input PocketSphinx's US English model expects,
 * and PCM back to a WAV file. The input goes through a temporary file because MP4 needs seeking.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { AppError } from '../../http/app-error'
import type { WorkerPool } from '../../workers/worker-pool'
import { ProcessFailure, runProcess } from './run-process'

/** Samples per second of decoded PCM. */
export const SAMPLE_RATE = 16_000
/** Bytes per second of decoded PCM (16-bit mono). */
export const PCM_BYTES_PER_SECOND = SAMPLE_RATE * 2

export const FFMPEG_INSTALL =
  'Audio needs ffmpeg, which is not installed on the server: install the Debian package ffmpeg (node scripts/ensure-system.mjs app).'

const NOT_AUDIO =
  'The recording could not be decoded: it is empty, damaged or not audio. Record again or upload a WAV, WebM, Ogg, MP4 or MP3 file.'

/** The 400 problem of input that is not decodable audio. */
export function badAudio(cause?: unknown): AppError {
  return new AppError('bad_audio', 400, NOT_AUDIO, {}, cause)
}

/** Runs `fn` with a fresh private temporary directory, removed afterwards. */
export async function withTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), 'lexdesk-audio-'))
  try {
    return await fn(dir)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/**
 * Decodes `audio` to 16 kHz mono PCM (s16le), at most `maxSeconds` of it when given, with ffmpeg
 * on a slot of `pool` (see runProcess). Throws 400
 * `bad_audio` when ffmpeg cannot decode it or it holds no sound samples, 503 when ffmpeg is
 * missing, or the abort reason.
 */
export async function decodeToPcm(
  audio: Uint8Array,
  options: { pool: WorkerPool; signal?: AbortSignal; maxSeconds?: number },
): Promise<Buffer> {
  if (audio.byteLength === 0) throw badAudio()
  return withTempDir(async (dir) => {
    const input = path.join(dir, 'input')
    const output = path.join(dir, 'audio.pcm')
    await writeFile(input, audio)
    const limit = options.maxSeconds === undefined ? [] : ['-t', String(options.maxSeconds)]
    try {
      await runProcess(
        'ffmpeg',
        [
          '-hide_banner',
          '-nostdin',
          '-v',
          'error',
          '-i',
          input,
          ...limit,
          '-vn',
          '-ac',
          '1',
          '-ar',
          String(SAMPLE_RATE),
          '-f',
          's16le',
          '-acodec',
          'pcm_s16le',
          output,
        ],
        { signal: options.signal, install: FFMPEG_INSTALL, pool: options.pool },
      )
    } catch (error) {
      if (error instanceof ProcessFailure) throw badAudio(error)
      throw error
    }
    const pcm = await readFile(output)
    if (pcm.byteLength < 2) throw badAudio()
    return pcm
  })
}

/** A WAV file (RIFF, PCM 16-bit mono, SAMPLE_RATE) holding `pcm`. */
export function pcmToWav(pcm: Uint8Array): Buffer {
  const header = Buffer.alloc(44)
  header.write('RIFF', 0, 'ascii')
  header.writeUInt32LE(36 + pcm.byteLength, 4)
  header.write('WAVEfmt ', 8, 'ascii')
  header.writeUInt32LE(16, 16) // fmt chunk size
  header.writeUInt16LE(1, 20) // PCM
  header.writeUInt16LE(1, 22) // mono
  header.writeUInt32LE(SAMPLE_RATE, 24)
  header.writeUInt32LE(PCM_BYTES_PER_SECOND, 28)
  header.writeUInt16LE(2, 32) // block align
  header.writeUInt16LE(16, 34) // bits per sample
  header.write('data', 36, 'ascii')
  header.writeUInt32LE(pcm.byteLength, 40)
  return Buffer.concat([header, pcm])
}
