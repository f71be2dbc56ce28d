/**
 * The audio formats Lexdesk accepts, told from the bytes (magic numbers via file-type), never
 * from a client's claimed media type or file name. Each format names the ffmpeg demuxer forced
 * on it (so ffmpeg never probes, and never picks a playlist, concat, HLS, DASH or image demuxer),
 * the media type it is stored and served with, and the file extension it is stored under.
 */
import { open } from 'node:fs/promises'
import { fileTypeFromBuffer } from 'file-type'
import { AppError } from '../errors/app-error'

export interface AudioFormat {
  /** The media type stored and served (always audio/*, one of media/file-download's inline types). */
  mime: string
  /** ffmpeg's demuxer for `-f`. */
  demuxer: 'wav' | 'matroska' | 'ogg' | 'mov' | 'mp3' | 'flac'
  /** Extension of the stored file. */
  ext: string
}

const WAV: AudioFormat = { mime: 'audio/wav', demuxer: 'wav', ext: 'wav' }
const WEBM: AudioFormat = { mime: 'audio/webm', demuxer: 'matroska', ext: 'webm' }
const MATROSKA: AudioFormat = { mime: 'audio/x-matroska', demuxer: 'matroska', ext: 'mka' }
const OGG: AudioFormat = { mime: 'audio/ogg', demuxer: 'ogg', ext: 'ogg' }
const MP4: AudioFormat = { mime: 'audio/mp4', demuxer: 'mov', ext: 'm4a' }
const MP3: AudioFormat = { mime: 'audio/mpeg', demuxer: 'mp3', ext: 'mp3' }
const FLAC: AudioFormat = { mime: 'audio/flac', demuxer: 'flac', ext: 'flac' }

/** file-type's extensions of the allowed containers (ISO BMFF brands of MP4 audio included). */
const BY_EXTENSION: Record<string, AudioFormat> = {
  wav: WAV,
  webm: WEBM,
  mkv: MATROSKA,
  mka: MATROSKA,
  ogg: OGG,
  oga: OGG,
  opus: OGG,
  mp4: MP4,
  m4a: MP4,
  m4b: MP4,
  mp3: MP3,
  flac: FLAC,
}

const NOT_AUDIO =
  'The recording could not be decoded: it is empty, damaged or not audio. Record again or upload a WAV, WebM, Ogg, MP4/M4A, MP3 or FLAC file.'

/** The 400 problem of input that is not decodable audio of an allowed format. */
export function badAudio(cause?: unknown): AppError {
  return new AppError('bad_audio', NOT_AUDIO, {}, cause)
}

/** Bytes the format is told from: file-type's own sample size. */
export const SNIFF_AUDIO_BYTES = 4100

/**
 * The format of `bytes` (its first SNIFF_AUDIO_BYTES suffice): WAV, WebM/Matroska, Ogg, MP4/M4A, MP3 or FLAC by their magic numbers.
 * Throws 400 `bad_audio` for anything else (text such as playlists and concat lists, HTML,
 * scripts, images, video-only containers file-type names otherwise) and for empty input.
 */
export async function sniffAudio(bytes: Uint8Array): Promise<AudioFormat> {
  if (bytes.byteLength === 0) throw badAudio()
  const detected = await fileTypeFromBuffer(bytes)
  const format = detected ? BY_EXTENSION[detected.ext] : undefined
  if (!format) throw badAudio()
  return format
}

/**
 * The format of the file at `path`, sniffed from its first SNIFF_AUDIO_BYTES (read alone, not the
 * whole file); throws as sniffAudio does.
 */
export async function sniffAudioFile(path: string): Promise<AudioFormat> {
  const file = await open(path, 'r')
  try {
    const head = Buffer.alloc(SNIFF_AUDIO_BYTES)
    const { bytesRead } = await file.read(head, 0, head.length, 0)
    return await sniffAudio(head.subarray(0, bytesRead))
  } finally {
    await file.close()
  }
}
