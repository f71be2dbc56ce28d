import { describe, expect, it } from 'vitest'
import { leadInOf, withListLeadIns } from './with-list-lead-ins'

/** One document's passages, ordinal = index; scores given per hit. */
const LIST = [
  'This Agreement is made between the parties.',
  'Each party may disclose the Confidential Information of the other party:',
  '(a) to its employees who need to know it;',
  '(b) to its professional advisers, and',
  '(c) where disclosure is required by law.',
  'The Recipient shall keep the Confidential Information secure.',
]
const passage = (ordinal: number, score = 0) => ({
  id: `p${ordinal}`,
  documentId: 'doc',
  ordinal,
  content: LIST[ordinal] ?? '',
  score,
})
const beforeOf = (ordinal: number) =>
  new Map(LIST.slice(0, ordinal).map((content, i) => [i, content] as const))

describe('leadInOf', () => {
  it('finds the lead-in of a list item across the items before it', () => {
    expect(leadInOf(passage(2), beforeOf(2))).toBe(1)
    expect(leadInOf(passage(4), beforeOf(4))).toBe(1)
  })

  it('finds none after a full sentence, for a lead-in itself, or beyond the reach', () => {
    expect(leadInOf(passage(5), beforeOf(5))).toBeNull()
    expect(leadInOf(passage(1), beforeOf(1))).toBeNull()
    const long = new Map([[0, 'The Recipient shall not disclose it:']])
    for (let i = 1; i <= 6; i += 1) long.set(i, `(${i}) item ${i};`)
    expect(leadInOf({ ...passage(7), content: '(7) last item.' }, long)).toBeNull()
    expect(leadInOf({ ...passage(6), content: '(6) last item.' }, long)).toBe(0)
  })

  it('finds none when a passage between them is missing', () => {
    const gap = beforeOf(4)
    gap.delete(3)
    expect(leadInOf(passage(4), gap)).toBeNull()
  })
})

describe('withListLeadIns', () => {
  const context = [0, 1, 2, 3, 4].map((o) => passage(o))

  it('places an item’s lead-in right after it, with its score, and cuts to k', () => {
    const hits = [passage(3, 0.03), passage(5, 0.02), passage(0, 0.01)]
    expect(withListLeadIns(hits, context, 3).map((h) => [h.ordinal, h.score])).toEqual([
      [3, 0.03],
      [1, 0.03],
      [5, 0.02],
    ])
  })

  it('leaves a lead-in that already ranks higher where it is, and lists it once', () => {
    const hits = [passage(1, 0.04), passage(2, 0.03), passage(4, 0.02)]
    expect(withListLeadIns(hits, context, 5).map((h) => h.ordinal)).toEqual([1, 2, 4])
  })

  it('moves a lower-ranked lead-in up instead of repeating it', () => {
    const hits = [passage(2, 0.03), passage(5, 0.02), passage(1, 0.01)]
    expect(withListLeadIns(hits, context, 5).map((h) => h.ordinal)).toEqual([2, 1, 5])
  })

  it('changes nothing for passages outside lists', () => {
    const hits = [passage(5, 0.02), passage(0, 0.01)]
    expect(withListLeadIns(hits, context, 5)).toEqual(hits)
  })

  it('never takes a lead-in from another document', () => {
    const other = { ...passage(1), id: 'x1', documentId: 'other' }
    const hits = [{ ...passage(2, 0.03), documentId: 'mine' }]
    expect(withListLeadIns(hits, [other], 5).map((h) => h.id)).toEqual(['p2'])
  })
})
