/**
 * Test audio made on the spot: espeak-ng speaks a sentence (22,050 Hz mono WAV) and ffmpeg
 * re-encodes it into each format browsers record or upload. Nothing is downloaded.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { runProcess } from '../ai/speech/run-process'

/** The formats the API must accept: container/codec, file name extension and MIME type. */
export const AUDIO_FORMATS = {
  wav: { args: ['-f', 'wav', '-acodec', 'pcm_s16le'], mime: 'audio/wav' },
  webm: { args: ['-f', 'webm', '-acodec', 'libopus'], mime: 'audio/webm' },
  ogg: { args: ['-f', 'ogg', '-acodec', 'libopus'], mime: 'audio/ogg' },
  mp4: { args: ['-f', 'mp4', '-acodec', 'aac'], mime: 'audio/mp4' },
  mp3: { args: ['-f', 'mp3', '-acodec', 'libmp3lame'], mime: 'audio/mpeg' },
} as const
export type AudioFormat = keyof typeof AUDIO_FORMATS

const install = 'Tests need espeak-ng and ffmpeg: node scripts/ensure-system.mjs test'

/** `text` spoken by espeak-ng as a WAV file, repeated `times` times (longer audio). */
export async function spokenWav(text: string, times = 1): Promise<Buffer> {
  const input = new TextEncoder().encode(Array.from({ length: times }, () => text).join(' '))
  return runProcess('espeak-ng', ['--stdout', '-v', 'en-us'], { stdin: input, install, pool: null })
}

/**
 * `wav` re-encoded as `format` (through a file: MP4 cannot be written to a pipe); `extraArgs` are
 * more output options (e.g. `-metadata title=…`).
 */
export async function encodeAudio(
  wav: Uint8Array,
  format: AudioFormat,
  extraArgs: string[] = [],
): Promise<Buffer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'lexdesk-test-audio-'))
  try {
    await writeFile(path.join(dir, 'in.wav'), wav)
    const out = path.join(dir, `out.${format}`)
    await runProcess(
      'ffmpeg',
      [
        '-v',
        'error',
        '-nostdin',
        '-i',
        path.join(dir, 'in.wav'),
        ...AUDIO_FORMATS[format].args,
        ...extraArgs,
        out,
      ],
      { install, pool: null },
    )
    return await readFile(out)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
