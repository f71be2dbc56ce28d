import { describe, expect, it } from 'vitest'
import {
  addToBreakdown,
  breakdown,
  formatBreakdown,
  sectionOf,
  ungroundedClass,
} from './clause-error-breakdown'

// Five sentences of 10 characters each; sentence 0 is a heading.
const sentences = [0, 1, 2, 3, 4].map((i) => ({
  start: i * 10,
  end: i * 10 + 9,
  operative: i !== 0,
}))
const span = (s: number) => ({ start: s * 10, end: s * 10 + 9 })

describe('clauseErrorBreakdown', () => {
  it('sorts ungrounded findings into neighbour, other-category and absent-confused kinds', () => {
    const b = breakdown()
    addToBreakdown(b, {
      sentences,
      categories: ['Audit Rights', 'Insurance'],
      passages: (category) =>
        category === 'Audit Rights' ? [span(1)] : category === 'Insurance' ? [span(4)] : [],
      findings: [
        { ...span(2), category: 'Audit Rights' },
        { ...span(1), category: 'Audit Rights' },
        { ...span(4), category: 'Cap On Liability' },
      ],
    })
    expect(Object.fromEntries(b.ungrounded)).toEqual({ neighbour: 1, 'absent-confused': 1 })
    expect(b.perCategory.get('Audit Rights')).toMatchObject({ findings: 2, grounded: 1 })
    expect(Object.fromEntries(b.confusions)).toEqual({ 'Cap On Liability <- Insurance': 1 })
    // Insurance's passage has no finding of its category: the category was not reported.
    expect(Object.fromEntries(b.missed)).toEqual({ 'not-reported': 1 })
  })

  it('tells a missed passage under the cite threshold from one the quote cap left out', () => {
    const b = breakdown()
    addToBreakdown(b, {
      sentences,
      categories: ['Insurance'],
      passages: () => [span(0), span(2), span(4)],
      findings: [{ ...span(1), category: 'Insurance' }],
      probability: (s) => (s === 2 ? 0.9 : 0.1),
      citeThreshold: () => 0.5,
    })
    expect(Object.fromEntries(b.missed)).toEqual({
      'non-operative': 1,
      'quote-cap': 1,
      'below-cite': 1,
    })
    expect(b.passageLength.get('1')).toEqual({ found: 0, missed: 3 })
  })

  it("tells a citation in the labelled passage's section (boundary) from one elsewhere", () => {
    // Eight sentences: section 1 is sentences 0-5 (passage at 0), section 2 is 6-7.
    const eight = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => ({
      start: i * 10,
      end: i * 10 + 9,
      operative: true,
    }))
    const at = (s: number) => ({ start: s * 10, end: s * 10 + 9 })
    const b = breakdown()
    addToBreakdown(b, {
      sentences: eight,
      categories: ['Audit Rights'],
      passages: () => [at(0)],
      section: [1, 1, 1, 1, 1, 1, 2, 2],
      findings: [
        { ...at(5), category: 'Audit Rights' },
        { ...at(7), category: 'Audit Rights' },
      ],
    })
    expect(Object.fromEntries(b.ungrounded)).toEqual({ 'same-section': 1, elsewhere: 1 })
    expect(ungroundedClass('same-section')).toBe('boundary')
    expect(ungroundedClass('absent-confused')).toBe('presence')
    expect(formatBreakdown('clauses', b)).toContain(
      '  by class: presence 0 (0.0 %), boundary 1 (50.0 %), elsewhere 1 (50.0 %)',
    )
  })

  it('opens a section at each heading and numbered start, not at a lettered item', () => {
    const kinds = [
      { kind: 'preamble', text: 'This Agreement is made between A and B.' },
      { kind: 'heading', text: 'AUDIT' },
      { kind: 'operative', text: 'A may audit B.' },
      { kind: 'operative', text: '(a) on notice.' },
      { kind: 'operative', text: '12.3 Assignment. Neither party may assign.' },
      { kind: 'operative', text: 'Section 5 Notices shall be written.' },
    ]
    expect(sectionOf(kinds)).toEqual([0, 1, 1, 1, 2, 3])
  })
})
