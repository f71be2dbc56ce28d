import { describe, expect, it } from 'vitest'
import { makeSeededPair } from './compare-pairs'

/** A numbered text of 30 paragraphs, each distinct, with a repeated legend between some. */
function text(): string {
  const paragraphs = Array.from(
    { length: 30 },
    (_, i) =>
      `${i + 1}. Clause number ${i + 1} requires the Supplier to deliver ${i + 10} units of product to the Buyer every month without exception and at its own cost.`,
  )
  paragraphs.splice(10, 0, 'CONFIDENTIAL LEGEND REPEATED ON EVERY PAGE OF THIS DOCUMENT FOR FILING')
  paragraphs.splice(20, 0, 'CONFIDENTIAL LEGEND REPEATED ON EVERY PAGE OF THIS DOCUMENT FOR FILING')
  return `SUPPLY AGREEMENT\n\n${paragraphs.join('\n\n')}\n\nSIGNATURES\n`
}

describe('makeSeededPair', () => {
  it('records each seeded edit with spans that hold its text in both versions', () => {
    const pair = makeSeededPair(text(), 3)
    const kinds = pair.edits.map((e) => e.kind).sort()
    expect(kinds).toEqual(
      [
        'deleted',
        'inserted',
        'modified',
        'modified',
        'modified',
        'modified',
        'moved',
        'moved',
        'renumbered',
        'whitespace',
        'whitespace',
      ].sort(),
    )
    const slice = (s: string, span: { start: number; end: number } | null) =>
      span ? s.slice(span.start, span.end) : null
    for (const edit of pair.edits) {
      if (edit.kind === 'moved') {
        expect(slice(pair.revised, edit.revised)).toBe(slice(pair.base, edit.base))
        expect(pair.revised.indexOf(slice(pair.base, edit.base)!)).toBe(edit.revised!.start)
      }
      if (edit.kind === 'deleted') expect(pair.revised).not.toContain(slice(pair.base, edit.base))
      if (edit.kind === 'inserted')
        expect(pair.base).not.toContain(slice(pair.revised, edit.revised))
      if (edit.kind === 'modified')
        expect(slice(pair.revised, edit.revised)).not.toBe(slice(pair.base, edit.base))
      // The repeated legend is never edited.
      expect(slice(pair.base, edit.base) ?? '').not.toContain('LEGEND')
    }
    expect(makeSeededPair(text(), 3)).toEqual(pair)
    expect(makeSeededPair(text(), 4).revised).not.toBe(pair.revised)
  })
})
