/**
 * Splits long PCM audio into pieces the recogniser works through one by one, cutting in the
 * quietest 50 ms of the last few seconds of each piece so that a cut rarely falls inside a word.
 * Only those last seconds are read (from the file, see pcm-file.ts), never the whole audio.
 */
import { PCM_BYTES_PER_SECOND, SAMPLE_RATE } from './audio'
import type { PcmSource } from './pcm-file'

/** One piece: a byte range of the PCM and where it starts in seconds. */
export interface Piece {
  startByte: number
  endByte: number
  startSec: number
}

const FRAME_SAMPLES = SAMPLE_RATE / 20 // 50 ms

/**
 * Byte ranges of `pcm` (16 kHz s16le) of at most `pieceSec` seconds, each cut at the quietest
 * frame within its last `searchSec` seconds (`searchSec` < `pieceSec`).
 */
export async function splitPcm(pcm: PcmSource, pieceSec = 60, searchSec = 8): Promise<Piece[]> {
  const pieces: Piece[] = []
  const maxBytes = pieceSec * PCM_BYTES_PER_SECOND
  let start = 0
  while (start < pcm.byteLength) {
    let end = Math.min(pcm.byteLength, start + maxBytes)
    if (end < pcm.byteLength) {
      const from = end - searchSec * PCM_BYTES_PER_SECOND
      const aligned = from - (from % 2)
      end = quietestCut(await pcm.read(aligned, end), aligned, end)
    }
    pieces.push({ startByte: start, endByte: end, startSec: start / PCM_BYTES_PER_SECOND })
    start = end
  }
  return pieces
}

/**
 * The start (byte of the PCM, frame-aligned) of the 50 ms frame of least energy in
 * [`from`, `to`), given `window`, the PCM's bytes from `from` (even) to `to`.
 */
function quietestCut(window: Buffer, from: number, to: number): number {
  const frameBytes = FRAME_SAMPLES * 2
  let best = to
  let bestEnergy = Infinity
  for (let frame = 0; from + frame + frameBytes <= to; frame += frameBytes) {
    let energy = 0
    for (let i = frame; i < frame + frameBytes; i += 2) energy += window.readInt16LE(i) ** 2
    if (energy < bestEnergy) {
      bestEnergy = energy
      best = from + frame
    }
  }
  return best
}
