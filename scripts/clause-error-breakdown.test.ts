import { describe, expect, it } from 'vitest'
import { addToBreakdown, breakdown } from './clause-error-breakdown'

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
})
