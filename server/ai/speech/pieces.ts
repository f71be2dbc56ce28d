/**
 * Splits long PCM audio into pieces the recogniser works through one by one, cutting in the
 * quietest 50 ms of the last few seconds of each piece so that a cut rarely falls inside a word.
 */
import { PCM_BYTES_PER_SECOND, SAMPLE_RATE } from './audio'

/** One piece: a byte range of the PCM and where it starts in seconds. */
export interface Piece {
  startByte: number
  endByte: number
  startSec: number
}

const FRAME_SAMPLES = SAMPLE_RATE / 20 // 50 ms

/**
 * Byte ranges of `pcm` (16 kHz s16le) of at most `pieceSec` seconds, each cut at the quietest
 * frame within its last `searchSec` seconds.
 */
export function splitPcm(pcm: Buffer, pieceSec = 60, searchSec = 8): Piece[] {
  const pieces: Piece[] = []
  const maxBytes = pieceSec * PCM_BYTES_PER_SECOND
  let start = 0
  while (start < pcm.byteLength) {
    let end = Math.min(pcm.byteLength, start + maxBytes)
    if (end < pcm.byteLength) end = quietestCut(pcm, end - searchSec * PCM_BYTES_PER_SECOND, end)
    pieces.push({ startByte: start, endByte: end, startSec: start / PCM_BYTES_PER_SECOND })
    start = end
  }
  return pieces
}

/** The start (byte, frame-aligned) of the 50 ms frame of least energy in [from, to). */
function quietestCut(pcm: Buffer, from: number, to: number): number {
  const frameBytes = FRAME_SAMPLES * 2
  let best = to
  let bestEnergy = Infinity
  for (let frame = from - (from % 2); frame + frameBytes <= to; frame += frameBytes) {
    let energy = 0
    for (let i = frame; i < frame + frameBytes; i += 2) energy += pcm.readInt16LE(i) ** 2
    if (energy < bestEnergy) {
      bestEnergy = energy
      best = frame
    }
  }
  return best
}
