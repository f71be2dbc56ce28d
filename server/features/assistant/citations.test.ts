import { describe, expect, it } from 'vitest'
import { citationsOf, type CitedPassage } from './citations'

const passage = (n: number): CitedPassage => ({
  n,
  documentId: `00000000-0000-4000-8000-00000000000${n}`,
  documentTitle: `Doc ${n}`,
  start: n * 10,
  end: n * 10 + 5,
  content: `text${n}`,
})

describe('citationsOf', () => {
  it('keeps each retrieved passage cited once, in order of mention, and drops unknown numbers', () => {
    const cited = citationsOf('A [2], B [7], C [1] and again [2].', [passage(1), passage(2)])
    expect(cited.map((c) => c.n)).toEqual([2, 1])
    expect(cited[0]).toMatchObject({
      documentId: passage(2).documentId,
      start: 20,
      end: 25,
      quote: 'text2',
    })
  })
})
