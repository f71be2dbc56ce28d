/**
 * Audio decoding with ffmpeg: the allowed formats (media/sniff-audio.ts) to 16 kHz mono signed 16-bit
 * little-endian PCM, the input PocketSphinx's US English model expects, and PCM back to a WAV
 * file. ffmpeg reads only the bytes it is given (decision 0034): they arrive on its standard
 * input with the demuxer forced from the sniffed format and only the `pipe` protocol allowed, or,
 * for MP4 (whose index may sit at the end, so it needs seeking), as one temporary file with only
 * the `file` protocol and the `mov` demuxer without external data references; an upload's private
 * copy is read the same way, by path, under its forced demuxer. So a playlist, a concat list or a file:// URL in an upload is refused before ffmpeg runs, and could not open
 * another file if it reached it.
 */
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { WorkerPool } from '../../workers/worker-pool'
import { ProcessFailure, runProcess } from './run-process'
import { openPcmFile, type PcmSource } from './pcm-file'
import { badAudio, sniffAudio, sniffAudioFile, type AudioFormat } from '../../media/sniff-audio'
import { withTempDir } from '../../temp-files/temp-root'
import type { AudioFile } from './types'

/** Samples per second of decoded PCM. */
export const SAMPLE_RATE = 16_000
/** Bytes per second of decoded PCM (16-bit mono). */
export const PCM_BYTES_PER_SECOND = SAMPLE_RATE * 2

export const FFMPEG_INSTALL =
  'Audio needs ffmpeg, which is not installed on the server: install the Debian package ffmpeg (node scripts/ensure-system.mjs app).'

interface DecodeOptions {
  pool: WorkerPool
  signal?: AbortSignal
  /** Decode at most this many seconds (ffmpeg `-t`). */
  maxSeconds?: number
}

/**
 * Audio to decode: bytes at hand (a test clip, a short piece), or a file holding it (an upload's
 * stored file or private copy, uploads/spool-upload.ts; a stored recording's copy), which ffmpeg
 * reads itself so the server never holds it.
 */
export type AudioInput = Uint8Array | AudioFile

/** The format of `audio`, sniffed from its first bytes (media/sniff-audio.ts; 400 `bad_audio`). */
function sniffInput(audio: AudioInput): Promise<AudioFormat> {
  return audio instanceof Uint8Array ? sniffAudio(audio) : sniffAudioFile(audio.path)
}

/**
 * ffmpeg's input arguments for `audio` of `format` in the private folder `dir`, and the bytes to
 * give it on standard input (none for a file, and for MP4, which is written to `dir` first). A
 * file is read with only the `file` protocol allowed, under the forced demuxer, so it can open
 * no other file.
 */
async function inputOf(audio: AudioInput, format: AudioFormat, dir: string) {
  const common = ['-hide_banner', '-nostdin', '-v', 'error']
  if (format.demuxer !== 'mov' && audio instanceof Uint8Array) {
    const args = [...common, '-protocol_whitelist', 'pipe', '-f', format.demuxer, '-i', 'pipe:0']
    return { args, stdin: audio }
  }
  let file: string
  if (audio instanceof Uint8Array) {
    file = path.join(dir, 'input.m4a')
    await writeFile(file, audio)
  } else file = audio.path
  const args = [...common, '-protocol_whitelist', 'file', '-f', format.demuxer]
  const noReferences = format.demuxer === 'mov' ? ['-enable_drefs', '0'] : []
  return { args: [...args, ...noReferences, '-i', file], stdin: undefined }
}

/** Runs ffmpeg on `audio` (sniffed first) with `outputArgs`; returns what `read(dir)` reads after. */
async function runFfmpeg<T>(
  audio: AudioInput,
  outputArgs: (dir: string) => string[],
  read: (stdout: Buffer, dir: string) => Promise<T>,
  options: DecodeOptions,
): Promise<T> {
  const format = await sniffInput(audio)
  const limit = options.maxSeconds === undefined ? [] : ['-t', String(options.maxSeconds)]
  return withTempDir(async (dir) => {
    const input = await inputOf(audio, format, dir)
    let stdout: Buffer
    try {
      stdout = await runProcess('ffmpeg', [...input.args, ...limit, ...outputArgs(dir)], {
        stdin: input.stdin,
        signal: options.signal,
        install: FFMPEG_INSTALL,
        pool: options.pool,
      })
    } catch (error) {
      if (error instanceof ProcessFailure) throw badAudio(error)
      throw error
    }
    return read(stdout, dir)
  })
}

/**
 * Decodes `audio` to 16 kHz mono PCM (s16le), at most `maxSeconds` of it when given, with ffmpeg
 * on a slot of `pool` (see runProcess), into a file of a private temporary folder, and resolves
 * with what `use` makes of it: the PCM, read by byte range (at most `maxSeconds` of samples:
 * ffmpeg's `-t` goes by timestamps), and the folder, for more files of the same work. The folder
 * is removed when `use` settles. Throws 400 `bad_audio` when it is not an allowed format, ffmpeg
 * cannot decode it or it holds no sound samples, 503 when ffmpeg is missing, or the abort reason.
 */
export async function withDecodedPcm<T>(
  audio: AudioInput,
  options: DecodeOptions,
  use: (pcm: PcmSource, dir: string) => Promise<T>,
): Promise<T> {
  const output = (dir: string) => path.join(dir, 'audio.pcm')
  const limit =
    options.maxSeconds === undefined ? Infinity : options.maxSeconds * PCM_BYTES_PER_SECOND
  return runFfmpeg(
    audio,
    // Written to a file rather than collected from stdout: hours of PCM are hundreds of MB.
    (dir) => [
      '-vn',
      '-ac',
      '1',
      '-ar',
      String(SAMPLE_RATE),
      '-f',
      's16le',
      '-acodec',
      'pcm_s16le',
      output(dir),
    ],
    async (_stdout, dir) => {
      const pcm = await openPcmFile(output(dir), limit)
      try {
        if (pcm.byteLength < 2) throw badAudio()
        return await use(pcm, dir)
      } finally {
        await pcm.close()
      }
    },
    options,
  )
}

/**
 * The PCM of `audio` in one Buffer (see withDecodedPcm, which throws the same): only for short
 * audio, such as a `maxSeconds` check or a test clip; a stored recording is read by the piece.
 */
export async function decodeToPcm(audio: AudioInput, options: DecodeOptions): Promise<Buffer> {
  return withDecodedPcm(audio, options, (pcm) => pcm.read(0, pcm.byteLength))
}

/**
 * Seconds of audio in `audio`, read up to `options.maxSeconds` (so a longer recording reads as a
 * little over the cap): ffmpeg copies the audio packets, without decoding them, to its null
 * muxer and reports the time reached (`-progress`). No ffprobe, whose container durations may be
 * missing (MediaRecorder's WebM) or wrong; ten minutes of Opus took 1.3 s here (5.2 s to decode).
 * Throws like decodeToPcm, 400 `bad_audio` also when there is no audio stream.
 */
export async function audioSeconds(audio: AudioInput, options: DecodeOptions): Promise<number> {
  const seconds = await runFfmpeg(
    audio,
    () => ['-vn', '-c:a', 'copy', '-nostats', '-progress', 'pipe:1', '-f', 'null', '-'],
    async (stdout) => {
      const times = [...stdout.toString('utf8').matchAll(/^out_time_us=(\d+)$/gm)]
      return Number(times.at(-1)?.[1] ?? 0) / 1e6
    },
    options,
  )
  if (!(seconds > 0)) throw badAudio()
  return seconds
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
