import { describe, expect, it } from 'vitest'
import { isWellFormed } from '../test/well-formed'
import { charBoundary, clipText } from './char-boundary'

describe('cutting text between characters', () => {
  it('moves a cut inside a surrogate pair back before the pair, and leaves others alone', () => {
    const text = 'a😀b'
    expect([0, 1, 2, 3, 4].map((i) => charBoundary(text, i))).toEqual([0, 1, 1, 3, 4])
    expect(charBoundary(text, 99)).toBe(99)
  })

  it('clips to at most the limit, never leaving half an emoji', () => {
    expect(clipText('😀😀😀', 3)).toBe('😀')
    expect(clipText('😀😀😀', 4)).toBe('😀😀')
    expect(clipText('short', 10)).toBe('short')
    for (let max = 0; max < 12; max++)
      expect(isWellFormed(clipText('x😀'.repeat(5), max))).toBe(true)
  })
})
