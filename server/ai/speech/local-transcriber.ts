/**
 * The local speech-to-text engine: ffmpeg decodes the recording to 16 kHz mono PCM in a temporary
 * file, which is cut into pieces of about a minute (pieces.ts), each read from the file when its
 * turn comes (memory is bounded by the piece, not the recording: decision 0034), and recognised
 * by CMU PocketSphinx 0.8 (`pocketsphinx_continuous`, Debian packages pocketsphinx and
 * pocketsphinx-en-us) with its US
 * English acoustic model, language model and dictionary. Every program runs as a child process
 * on a slot of the shared worker pool (runProcess), so pieces are recognised as many at a time as
 * the pool has threads, sharing them with every other CPU-heavy task, and are killed when the
 * signal aborts; each piece is normalised with its own cepstral mean (cepstral-mean.ts). Progress
 * is reported after each piece.
 */
import { existsSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { AppError } from '../../errors/app-error'
import { PCM_BYTES_PER_SECOND, pcmToWav, withDecodedPcm } from './audio'
import { featParamsForPiece } from './cepstral-mean'
import type { PcmSource } from './pcm-file'
import { parsePocketsphinxTimes } from './pocketsphinx-output'
import { splitPcm, type Piece } from './pieces'
import { engineUnavailable, ProcessFailure, runProcess } from './run-process'
import type { WorkerPool } from '../../workers/worker-pool'
import type {
  AudioFile,
  Transcriber,
  TranscribeOptions,
  Transcript,
  TranscriptSegment,
} from './types'

/** Where Debian's pocketsphinx-en-us puts the acoustic model. */
export const POCKETSPHINX_MODEL = '/usr/share/pocketsphinx/model/en-us/en-us'

const INSTALL =
  'Speech recognition needs PocketSphinx, which is not installed on the server: install the Debian packages pocketsphinx, pocketsphinx-en-us and sphinxbase-utils (node scripts/ensure-system.mjs app), or set AI_STT_ENGINE=openai with AI_BASE_URL and AI_STT_MODEL.'

/**
 * Decoder options: a 5-frame phonetic lookahead window prunes word starts that the coming phones
 * rule out. On the development clips it kept the default's words and cut decoding time by about
 * a tenth; hard caps on active HMMs (-maxhmmpf 3000) halved the time but lost words, and wider
 * beams gained words at twice real time (decision 0020 lists the measurements).
 */
const DECODER_OPTIONS = ['-pl_window', '5']

export class LocalTranscriber implements Transcriber {
  /** `pieceSec`: longest piece (default pieces.ts); `extraArgs`: more decoder options (evaluations). */
  constructor(
    private readonly pool: WorkerPool,
    private readonly options: { pieceSec?: number; extraArgs?: string[] } = {},
  ) {}

  /** Decodes the file `audio` by path with its sniffed demuxer forced (audio.ts), never whole. */
  async transcribe(
    audio: AudioFile,
    _mime: string,
    options: TranscribeOptions = {},
  ): Promise<Transcript> {
    if (!existsSync(POCKETSPHINX_MODEL)) throw engineUnavailable(INSTALL)
    options.onProgress?.(0, 'Decoding audio')
    return withDecodedPcm(
      { path: audio.path },
      { pool: this.pool, signal: options.signal, maxSeconds: options.maxSeconds },
      (pcm, dir) => this.transcribePcm(pcm, dir, options),
    )
  }

  /** Recognises `pcm` piece by piece, reading each from its file, with the WAV pieces in `dir`. */
  private async transcribePcm(
    pcm: PcmSource,
    dir: string,
    options: TranscribeOptions,
  ): Promise<Transcript> {
    const pieces = await splitPcm(pcm, this.options.pieceSec)
    const results: TranscriptSegment[][] = []
    let done = 0
    // The first piece that fails stops the others: their result would be thrown away.
    const failed = new AbortController()
    const signal = options.signal ? AbortSignal.any([options.signal, failed.signal]) : failed.signal
    let next = 0
    const worker = async () => {
      while (next < pieces.length && !signal.aborted) {
        const index = next++
        const piece = pieces[index] as Piece
        results[index] = await this.recognise(dir, index, pcm, piece, signal)
        done++
        options.onProgress?.(done / pieces.length, `Transcribed ${done} of ${pieces.length}`)
      }
    }
    // As many pieces in hand (a WAV file each, and its PCM) as the pool can recognise at once.
    const inHand = Math.min(this.pool.maxThreads, pieces.length)
    // Every worker ends (so no process writes into the folder being removed); then the
    // caller's abort reason, or the first failure, is the answer.
    await Promise.all(
      Array.from({ length: inHand }, () => worker().catch((error: unknown) => failed.abort(error))),
    )
    options.signal?.throwIfAborted()
    if (failed.signal.aborted) throw failed.signal.reason
    const segments = results.flat()
    return {
      text: segments.map((s) => s.text).join(' '),
      segments,
      language: 'en',
      engine: 'local',
      model: 'pocketsphinx-0.8-en-us',
      durationSec: pcm.byteLength / PCM_BYTES_PER_SECOND,
    }
  }

  /** Recognises one piece in its own pocketsphinx_continuous process. */
  private async recognise(
    dir: string,
    index: number,
    pcm: PcmSource,
    piece: Piece,
    signal?: AbortSignal,
  ): Promise<TranscriptSegment[]> {
    const file = path.join(dir, `piece-${index}.wav`)
    await writeFile(file, pcmToWav(await pcm.read(piece.startByte, piece.endByte)))
    try {
      const params = await featParamsForPiece(POCKETSPHINX_MODEL, file, {
        pool: this.pool,
        signal,
        install: INSTALL,
      })
      const args = ['-infile', file, '-logfn', '/dev/null', '-time', 'yes', ...DECODER_OPTIONS]
      if (params) args.push('-featparams', params)
      const output = await runProcess(
        'pocketsphinx_continuous',
        [...args, ...(this.options.extraArgs ?? [])],
        { pool: this.pool, signal, install: INSTALL },
      )
      return parsePocketsphinxTimes(output.toString('utf8'), piece.startSec)
    } catch (error) {
      if (!(error instanceof ProcessFailure)) throw error
      throw new AppError(
        'speech_failed',
        'The speech recogniser failed on this recording. Try again, or ask an administrator to check the server log.',
        {},
        error,
      )
    }
  }
}
