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

  it('cites the detected clause when the wording matched only another sentence (risk-citing-another-sentence failure)', () => {
    const clauses = [clause(40, 50, 'Exclusivity', 0.9), clause(60, 70, 'Non-Compete', 0.9)]
    expect(clauseEvidence(matches, clauses, 'Non-Compete')).toMatchObject({ start: 60, end: 70 })
    expect(clauseEvidence([], clauses, 'Non-Compete')).toBeUndefined()
  })

  it('cites a clause the detector reports even weakly over a match elsewhere (decision 0154), and the first match when the rule has no category', () => {
    const weak = [clause(60, 70, 'Non-Compete', 0.3), clause(20, 30, 'Exclusivity', 0.9)]
    expect(clauseEvidence(matches, weak, 'Non-Compete')).toMatchObject({ start: 60, end: 70 })
    expect(clauseEvidence(matches, weak, undefined)).toEqual({ start: 0, end: 10 })
  })

  it('keeps the first match when the detector reports no clause of the category', () => {
    const other = [clause(20, 30, 'Exclusivity', 0.9)]
    expect(clauseEvidence(matches, other, 'Non-Compete')).toEqual({ start: 0, end: 10 })
  })

  it('does not move to a detected clause the rule sets aside', () => {
    const clauses = [{ ...clause(60, 70, 'Non-Compete', 0.9), text: 'free to compete' }]
    expect(
      clauseEvidence(matches, clauses, 'Non-Compete', (text) => text.includes('free to')),
    ).toEqual({ start: 0, end: 10 })
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

describe("risks read the detector's clause of their category (decision 0133)", () => {
  const content = [
    'SUPPLY AGREEMENT',
    'This Supply Agreement is made on May 1, 2021 between Acme Foods Inc. ("Supplier") and Bell Stores LLC ("Buyer").',
    '3. Buyer shall pay each invoice within thirty days.',
    '9. During the Term, Buyer shall not, directly or indirectly, engage in any business that competes with Supplier in the Territory. This covenant applies in every country where Supplier sells.',
    '10. The parties may terminate this Agreement at any time by mutual written consent.',
  ].join('\n\n')
  const sentences = segmentSentences(content)
  const keyTerms = extractKeyTerms(content, sentences)
  const sentence = (prefix: string) => {
    const found = sentences.find((s) => s.text.startsWith(prefix))
    if (!found) throw new Error(`the fixture has a sentence starting ${prefix}`)
    return found
  }
  const covenant = sentence('9.')
  const risk = (clauses: Clause[], code: string) =>
    assessRisks(content, sentences, clauses, keyTerms).find((r) => r.code === code)

  it('raises the risk on its wording when the detector does not find the clause (no presence gate)', () => {
    const found = risk([], 'non-compete')
    expect(found && content.slice(found.start, found.end)).toBe(covenant.text)
  })

  it('does not read termination by mutual consent as termination for convenience (false-presence failure)', () => {
    const mutual = sentence('10.')
    const clauses = [
      {
        ...clause(mutual.start, mutual.end, 'Termination For Convenience', 0.9),
        text: mutual.text,
      },
    ]
    expect(risk(clauses, 'termination-for-convenience')).toBeUndefined()
  })

  it('does not read a non-renewal at the end of the term as termination for convenience (false-presence failure)', () => {
    const body = [
      ...content.split('\n\n').slice(0, 3),
      "11. Either party may terminate this Agreement upon the expiration of the Initial Term for any reason by giving ninety days' notice.",
    ].join('\n\n')
    const bodySentences = segmentSentences(body)
    const found = assessRisks(body, bodySentences, [], extractKeyTerms(body, bodySentences))
    expect(found.map((r) => r.code)).not.toContain('termination-for-convenience')
  })
})

describe('a risk cites the sentence after a caption, never the caption (decision 0138)', () => {
  // Failure kind "caption typed operative": "20. Covenant Not to Compete." read as a sentence
  // ("Covenant" as a verb), so the non-compete risk cited the caption, not the covenant after it.
  const content = [
    'DISTRIBUTION AGREEMENT',
    'This Distribution Agreement is made on May 1, 2021 between Acme Foods Inc. ("Supplier") and Bell Stores LLC ("Distributor").',
    '3. Distributor shall pay each invoice within thirty days.',
    '20. Covenant Not to Compete.',
    'During the Term and for two years after it, Distributor shall not sell or distribute any product competing with the Products in the Territory.',
  ].join('\n\n')
  const sentences = segmentSentences(content)

  it('cites the covenant after "20. Covenant Not to Compete.", with or without a detected clause', () => {
    const covenant = sentences.find((s) => s.text.startsWith('During the Term'))
    if (!covenant) throw new Error('the fixture has a covenant sentence')
    const detected = [
      { ...clause(covenant.start, covenant.end, 'Non-Compete', 0.8), text: covenant.text },
    ]
    for (const clauses of [[], detected]) {
      const risk = assessRisks(
        content,
        sentences,
        clauses,
        extractKeyTerms(content, sentences),
      ).find((r) => r.code === 'non-compete')
      expect(risk && content.slice(risk.start, risk.end)).toBe(covenant.text)
    }
  })
})
