import { describe, expect, it } from 'vitest'
import { parsePocketsphinxTimes } from './pocketsphinx-output'

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
      // Confidence: the mean posterior of 'and' and 'not', (0.985603 + 0.81773) / 2.
      { start: 63.29, end: 64.3, text: 'and not', confidence: 0.902 },
    ])
  })
})
