import { describe, expect, it } from 'vitest'
import { addGrounding, charsInside, grounding, locatePassages, overlapsAny } from './grounding'

describe('grounding', () => {
  const content = 'Intro.  The Supplier shall not\n  compete in France. Law: Delaware.'

  it('locates a labelled passage exactly or with whitespace relaxed, and skips one not in the text', () => {
    expect(
      locatePassages(content, ['Law: Delaware.', 'Supplier shall not compete', 'absent']),
    ).toEqual([
      { start: 52, end: 66 },
      { start: 12, end: 40 },
    ])
  })

  it('counts a finding grounded only when it overlaps a passage of its own category', () => {
    const scores = grounding()
    const passages: Record<string, { start: number; end: number }[]> = {
      'Non-Compete': [{ start: 12, end: 42 }],
    }
    addGrounding(
      scores,
      [
        { start: 8, end: 20, category: 'Non-Compete' },
        { start: 52, end: 66, category: 'Non-Compete' },
        { start: 0, end: 5, category: null },
      ],
      (category) => passages[category] ?? [],
      ['Non-Compete'],
    )
    expect(scores).toEqual({
      findings: 2,
      grounded: 1,
      passages: 1,
      recalled: 1,
      quotedChars: 12 + 14,
      insideChars: 8,
    })
    expect(overlapsAny({ start: 42, end: 50 }, [{ start: 12, end: 42 }])).toBe(false)
  })

  it('measures how much of a wide quote lies inside its labelled passages, each character once', () => {
    // A quote overlapping its passage by one word is grounded; its precision says how little.
    expect(charsInside({ start: 0, end: 100 }, [{ start: 90, end: 110 }])).toBe(10)
    expect(
      charsInside({ start: 0, end: 100 }, [
        { start: 10, end: 30 },
        { start: 20, end: 40 },
        { start: 200, end: 300 },
      ]),
    ).toBe(30)
  })
})
