import { describe, expect, it } from 'vitest'
import { parsePocketsphinxTimes } from './pocketsphinx-output'
import { splitPcm } from './pieces'
import { PCM_BYTES_PER_SECOND } from './audio'

describe('parsePocketsphinxTimes', () => {
  it('makes one segment per utterance, dropping fillers and variant marks, shifted by the offset', () => {
    const output = [
      'and not',
      '<s> 3.170 3.280 1.000300',
      'and(2) 3.290 3.730 0.985603',
      '<sil> 3.740 3.980 0.828680',
      'not 3.990 4.300 0.817730',
      '</s> 4.310 4.760 1.000000',
      '',
      '<s> 5.000 5.100 1.0',
      '[NOISE] 5.110 5.500 0.5',
      '</s> 5.510 5.600 1.0',
    ].join('\n')
    expect(parsePocketsphinxTimes(output, 60)).toEqual([
      { start: 63.29, end: 64.3, text: 'and not' },
    ])
  })
})

describe('splitPcm', () => {
  it('cuts long audio at the quietest frame near each piece end', () => {
    const seconds = 25
    const pcm = Buffer.alloc(seconds * PCM_BYTES_PER_SECOND)
    for (let i = 0; i < pcm.byteLength; i += 2) pcm.writeInt16LE(8000, i)
    // Silence from 8.5 s to 8.55 s: the cut of the first 10 s piece must land there.
    const quietAt = 8.5 * PCM_BYTES_PER_SECOND
    pcm.fill(0, quietAt, quietAt + 0.05 * PCM_BYTES_PER_SECOND)
    const pieces = splitPcm(pcm, 10, 3)
    expect(pieces[0]).toEqual({ startByte: 0, endByte: quietAt, startSec: 0 })
    expect(pieces[1]?.startSec).toBe(8.5)
    expect(pieces[1]?.startByte).toBe(quietAt)
    expect(pieces.at(-1)?.endByte).toBe(pcm.byteLength)
    for (const piece of pieces)
      expect(piece.endByte - piece.startByte).toBeLessThanOrEqual(10 * PCM_BYTES_PER_SECOND)
  })
})
