import { describe, expect, it } from 'vitest'
import {
  addGrounding,
  charsInside,
  grounding,
  locatePassages,
  overlapsAny,
  type PassagePiece,
} from './grounding'

describe('grounding', () => {
  const content = 'Intro.  The Supplier shall not\n  compete in France. Law: Delaware.'

  it('locates a labelled passage exactly or with whitespace relaxed, and skips one not in the text', () => {
    expect(
      locatePassages(content, ['Law: Delaware.', 'Supplier shall not compete', 'absent']),
    ).toEqual([
      { start: 52, end: 66, passage: 0 },
      { start: 12, end: 40, passage: 1 },
    ])
  })

  it('locates each piece of a passage CUAD joined with <omitted>, one passage number for all', () => {
    // The joined string is not in the text: before decision 0144 the passage was never found.
    expect(
      locatePassages(content, ['The Supplier shall not <omitted> Law: Delaware.', 'absent']),
    ).toEqual([
      { start: 8, end: 30, passage: 0 },
      { start: 52, end: 66, passage: 0 },
    ])
  })

  it('grounds a finding citing one piece, counts the passage once in recall and precision per piece', () => {
    const scores = grounding()
    const pieces = locatePassages(content, ['The Supplier shall not <omitted> Law: Delaware.'])
    addGrounding(
      scores,
      [
        { start: 52, end: 66, category: 'Governing Law' },
        { start: 8, end: 12, category: 'Governing Law' },
        { start: 30, end: 52, category: 'Governing Law' },
      ],
      () => pieces,
      ['Governing Law'],
    )
    expect(scores).toEqual({
      findings: 3,
      grounded: 2,
      passages: 1,
      recalled: 1,
      quotedChars: 14 + 4 + 22,
      insideChars: 14 + 4,
    })
  })

  it('counts a finding grounded only when it overlaps a passage of its own category', () => {
    const scores = grounding()
    const passages: Record<string, PassagePiece[]> = {
      'Non-Compete': [{ start: 12, end: 42, passage: 0 }],
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
