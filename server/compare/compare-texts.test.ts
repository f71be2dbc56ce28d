import { describe, expect, it } from 'vitest'
import { compareTexts } from './compare-texts'
import { acceptAll, rejectAll, type Change, type Comparison } from './comparison'
import { splitClauses } from './split-clauses'

/** A numbered contract of `clauses` (each "Caption. Text"), numbered from 1, blank lines between. */
function contract(clauses: readonly string[], numbers?: readonly number[]): string {
  const body = clauses.map((c, i) => `${numbers?.[i] ?? i + 1}. ${c}`)
  return ['SUPPLY AGREEMENT', '', ...body.flatMap((c) => [c, ''])].join('\n')
}

const CLAUSES = [
  'Supply. The Supplier shall deliver the Products described in each purchase order to the Buyer at the agreed delivery point.',
  'Price. The Buyer shall pay the prices set out in Schedule 1 within thirty (30) days of the date of each invoice.',
  'Warranty. The Supplier warrants that the Products will conform to their specification for twelve months after delivery.',
  'Assignment. The Buyer may assign this Agreement to an affiliate without the consent of the Supplier.',
  'Termination. Either party may terminate this Agreement on ninety days written notice to the other party.',
  'Governing Law. This Agreement is governed by the laws of the State of New York without regard to conflict of laws.',
]

const substantive = (c: Comparison) => c.changes.filter((x) => x.substantive)
const text = (c: Comparison, change: Change) => ({
  base: c.base.slice(change.base.start, change.base.end),
  revised: c.revised.slice(change.revised.start, change.revised.end),
})

function expectRoundTrip(c: Comparison) {
  expect(acceptAll(c.segments)).toBe(c.revised)
  expect(rejectAll(c.segments)).toBe(c.base)
}

describe('compareTexts', () => {
  it('finds a clause moved elsewhere as one move, cited in both versions, not as a deletion and an insertion', () => {
    const base = contract(CLAUSES)
    const order = [0, 1, 3, 4, 2, 5]
    const revised = contract(
      order.map((k) => CLAUSES[k]!),
      order.map((k) => k + 1),
    )
    const c = compareTexts(base, revised)
    const moves = c.changes.filter((x) => x.kind === 'moved')
    expect(moves).toHaveLength(1)
    expect(text(c, moves[0]!).base).toContain('Warranty. The Supplier warrants')
    expect(text(c, moves[0]!).revised).toContain('Warranty. The Supplier warrants')
    expect(c.changes.filter((x) => x.kind === 'inserted' || x.kind === 'deleted')).toEqual([])
    expect(c.segments.filter((s) => s.kind === 'moveFrom').map((s) => s.move)).toEqual([1])
    expect(c.segments.filter((s) => s.kind === 'moveTo').map((s) => s.move)).toEqual([1])
    expectRoundTrip(c)
  })

  it('tells renumbering, spacing, case and punctuation apart from substance', () => {
    const base = contract(CLAUSES)
    const renumbered = contract(
      CLAUSES.map((clause, i) =>
        i === 1
          ? clause.replace('within thirty', 'within  thirty')
          : i === 4
            ? clause.replace('written notice', 'Written Notice')
            : i === 5
              ? clause.replace('conflict of laws.', 'conflict of laws;')
              : clause,
      ),
      [2, 3, 4, 5, 6, 7],
    )
    const c = compareTexts(base, renumbered)
    expect(substantive(c)).toEqual([])
    expect(new Set(c.changes.map((x) => x.format))).toEqual(
      new Set(['renumbering', 'whitespace', 'case', 'punctuation']),
    )
    expect(c.pairs.every((p) => p.relation === 'same' || p.relation === 'format')).toBe(true)
    expectRoundTrip(c)
  })

  it('finds a word changed inside an aligned clause, with a note on the number', () => {
    const base = contract(CLAUSES)
    const revised = contract(CLAUSES.map((c) => c.replace('thirty (30) days', 'sixty (60) days')))
    const c = compareTexts(base, revised)
    const found = substantive(c)
    expect(found.map((x) => [x.kind, x.scope, x.baseText, x.revisedText])).toEqual([
      ['modified', 'words', 'thirty (30)', 'sixty (60)'],
    ])
    expect(text(c, found[0]!)).toEqual({ base: 'thirty (30)', revised: 'sixty (60)' })
    expect(found[0]!.note).toBe('a number changed: thirty (30) days → sixty (60) days')
    expectRoundTrip(c)
  })

  it('says when the force of a provision changes (reading layer)', () => {
    const base = contract(CLAUSES)
    const revised = contract(
      CLAUSES.map((c) => c.replace('The Buyer may assign', 'The Buyer shall assign')),
    )
    const [change] = substantive(compareTexts(base, revised))
    expect(change).toMatchObject({ kind: 'modified', baseText: 'may', revisedText: 'shall' })
    expect(change!.note).toBe('modality changed: may → shall')
  })

  it('finds a deleted clause and an inserted one, each placed in the other version', () => {
    const base = contract(CLAUSES)
    const revised = contract([
      ...CLAUSES.slice(0, 3),
      ...CLAUSES.slice(4),
      'Confidentiality. Each party shall keep the terms of this Agreement confidential and shall not disclose them.',
    ])
    const c = compareTexts(base, revised)
    const deleted = c.changes.filter((x) => x.kind === 'deleted' && x.substantive)
    const inserted = c.changes.filter((x) => x.kind === 'inserted' && x.substantive)
    expect(deleted).toHaveLength(1)
    expect(deleted[0]).toMatchObject({ scope: 'clause' })
    expect(text(c, deleted[0]!).base).toMatch(/^4\. Assignment\. The Buyer may assign/)
    expect(deleted[0]!.revised.start).toBe(deleted[0]!.revised.end)
    expect(revised.slice(deleted[0]!.revised.start)).toMatch(/^4\. Termination/)
    expect(inserted).toHaveLength(1)
    expect(text(c, inserted[0]!).revised).toMatch(/^6\. Confidentiality/)
    // The clauses after the deletion were renumbered: form, not substance.
    expect(substantive(c)).toHaveLength(2)
    expect(c.changes.filter((x) => x.format === 'renumbering')).toHaveLength(2)
    expectRoundTrip(c)
  })

  it('reads a cross-reference renumbered with its section as renumbering, another number change as substance', () => {
    const clauses = [
      ...CLAUSES.slice(0, 5),
      'Survival. Sections 3 and 6 survive the end of this Agreement for a period of 5 years.',
    ]
    const base = contract(clauses)
    const revised = contract(
      [
        ...clauses.slice(0, 1),
        ...clauses.slice(2, 5),
        'Survival. Sections 2 and 5 survive the end of this Agreement for a period of 7 years.',
      ],
      [1, 2, 3, 4, 5],
    )
    const c = compareTexts(base, revised)
    expect(substantive(c).map((x) => [x.kind, x.baseText, x.revisedText])).toEqual([
      ['deleted', CLAUSES[1]!.replace(/^/, '2. '), ''],
      ['modified', '5', '7'],
    ])
    expect(
      c.changes.filter((x) => x.format === 'renumbering').map((x) => [x.baseText, x.revisedText]),
    ).toEqual([
      ['3', '2'],
      ['4', '3'],
      ['5', '4'],
      ['6', '5'],
      ['3', '2'],
      ['6', '5'],
    ])
  })

  it('compares empty and blank texts without failing', () => {
    const base = contract(CLAUSES)
    for (const [a, b] of [
      ['', ''],
      ['', base],
      [base, ''],
      ['   \n\n ', base],
      [base, '\n'],
    ] as const) {
      const c = compareTexts(a, b)
      expectRoundTrip(c)
    }
    expect(compareTexts('', '').changes).toEqual([])
    const same = compareTexts(base, base)
    expect(same.changes).toEqual([])
    expect(same.segments).toEqual([{ kind: 'equal', text: base }])
    expect(same.pairs.every((p) => p.relation === 'same')).toBe(true)
    expect(compareTexts('', base).changes.every((x) => x.kind === 'inserted')).toBe(true)
  })

  it('completes on a 2 MB text against a shuffled, edited copy (bounded work, no timing asserted)', () => {
    const paragraphs = Array.from({ length: 9_000 }, (_, i) => {
      const clause = CLAUSES[i % CLAUSES.length]!
      return `${i + 1}. ${clause.replace('Products', `Products of line ${i}`)}`
    })
    const base = paragraphs.join('\n\n')
    expect(base.length).toBeGreaterThan(1_000_000)
    const revisedParagraphs = paragraphs.filter((_, i) => i % 500 !== 7)
    revisedParagraphs.splice(100, 0, ...revisedParagraphs.splice(4000, 3))
    const revised = revisedParagraphs.join('\n\n').replaceAll('ninety days', 'sixty days')
    const huge = `${base}\n\n${'x'.repeat(1_000_000)}`
    const c = compareTexts(huge, revised, { notes: false })
    expect(c.changes.filter((x) => x.kind === 'moved').length).toBeGreaterThanOrEqual(3)
    expectRoundTrip(c)
  })

  it('redlines two long unrelated one-line texts as one replacement once the diff gives up', () => {
    const words = ['alpha', 'beta', 'gamma', 'delta', 'shall', 'may', 'party', 'term']
    let state = 7
    const line = () =>
      Array.from({ length: 40_000 }, () => {
        state = (state * 1_103_515_245 + 12_345) % 2_147_483_648
        return words[Math.floor(state / 65_536) % words.length]
      }).join(' ')
    const c = compareTexts(line(), line(), { notes: false })
    expect(c.changes).toHaveLength(1)
    expect(c.changes[0]).toMatchObject({ kind: 'modified', substantive: true })
    expectRoundTrip(c)
  })
})

describe('splitClauses', () => {
  it('tiles the text with units and reads labels and captions', () => {
    const text = contract(CLAUSES)
    const units = splitClauses(text)
    expect(units.map((u) => text.slice(u.unit.start, u.unit.end)).join('')).toBe(text)
    expect(units.map((u) => u.label)).toEqual([null, '1.', '2.', '3.', '4.', '5.', '6.'])
    expect(units[6]!.heading).toBe('Governing Law')
    expect(units[0]!.kind).toBe('heading')
    const article = splitClauses('ARTICLE 5 - TERMINATION\n\n5.1 Either party may terminate.')
    expect(article.map((u) => [u.label, u.heading])).toEqual([
      ['ARTICLE 5', 'TERMINATION'],
      ['5.1', null],
    ])
  })
})
