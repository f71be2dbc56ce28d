import { describe, expect, it } from 'vitest'
import type { Clause } from '../types'
import { clauseEvidence } from './clause-evidence'
import { extractKeyTerms } from './key-terms'
import { assessRisks } from './risks'
import { segmentSentences } from './sentences'

const clause = (start: number, end: number, category: string, confidence: number): Clause => ({
  start,
  end,
  text: '',
  category,
  confidence,
})

describe('clauseEvidence', () => {
  const matches = [
    { start: 0, end: 10 },
    { start: 20, end: 30 },
    { start: 40, end: 50 },
  ]

  it('cites the match the detector quotes for the category, not the first match', () => {
    const clauses = [clause(20, 30, 'Non-Compete', 0.4), clause(40, 50, 'Non-Compete', 0.9)]
    expect(clauseEvidence(matches, clauses, 'Non-Compete')).toEqual({ start: 40, end: 50 })
  })

  it('keeps the first match when no clause of the category overlaps a match', () => {
    const clauses = [clause(40, 50, 'Exclusivity', 0.9), clause(60, 70, 'Non-Compete', 0.9)]
    expect(clauseEvidence(matches, clauses, 'Non-Compete')).toEqual({ start: 0, end: 10 })
    expect(clauseEvidence([], clauses, 'Non-Compete')).toBeUndefined()
  })
})

describe('a risk cites the operative sentence of its clause finding (risk grounding)', () => {
  // Failure kind "risk whose cited sentence is not its category's labelled passage": the first
  // sentence that uses the wording only refers to the covenant; the detector quotes the covenant.
  const content = [
    'SUPPLY AGREEMENT',
    'This Supply Agreement is made on May 1, 2021 between Acme Foods Inc. ("Supplier") and Bell Stores LLC ("Buyer").',
    '2. Buyer may not compete with Supplier where Section 9 so provides, and the parties shall discuss in good faith how that applies.',
    '3. Buyer shall pay each invoice within thirty days.',
    '9. During the Term and for two years after it, Buyer shall not, directly or indirectly, engage in any business that competes with Supplier in the Territory.',
  ].join('\n\n')
  const sentences = segmentSentences(content)
  const covenant = sentences.find((s) => s.text.startsWith('9.'))

  it('cites the covenant the clause detector found, not the earlier cross-reference', () => {
    if (!covenant) throw new Error('the fixture has a covenant sentence')
    const found = [
      { ...clause(covenant.start, covenant.end, 'Non-Compete', 0.8), text: covenant.text },
    ]
    const risk = assessRisks(content, sentences, found, extractKeyTerms(content, sentences)).find(
      (r) => r.code === 'non-compete',
    )
    expect(risk && content.slice(risk.start, risk.end)).toBe(covenant.text)
  })
})
