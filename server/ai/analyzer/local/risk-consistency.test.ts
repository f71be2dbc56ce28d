import { describe, expect, it } from 'vitest'
import { extractKeyTerms } from './key-terms'
import { assessRisks } from './risks'
import { segmentSentences } from './sentences'
import { statedPeriodDays } from './stated-period'

/** A neutral services contract; each case adds the clauses it is about. */
function contractWith(...clauses: string[]): string {
  return [
    'SERVICES AGREEMENT',
    'This Services Agreement is made on May 3, 2023 between Cedar Works Ltd ("Supplier") and Dune Retail plc ("Customer").',
    '1. Services. Supplier will maintain the tills in the stores of Customer.',
    '2. Assignment. Work Product. Supplier hereby assigns to Customer all right, title and interest in the work product.',
    ...clauses.map((clause, i) => `${i + 3}. ${clause}`),
  ].join('\n\n')
}

function risksOf(content: string, patch: Record<string, unknown> = {}) {
  const sentences = segmentSentences(content)
  const keyTerms = { ...extractKeyTerms(content, sentences), ...patch }
  return assessRisks(content, sentences, [], keyTerms)
}

const LAW = 'Law. This Agreement is governed by the laws of England and Wales.'
const CAP =
  "Liability. Each party's aggregate liability under this Agreement shall not exceed the fees paid in the preceding twelve months."

describe('risks agree with the key terms of the same document', () => {
  it('drops a missing-governing-law risk when the key terms name the law', () => {
    const content = contractWith(CAP, 'Disputes. The courts shall settle any dispute.')
    expect(risksOf(content).map((r) => r.code)).toContain('governing-law-missing')
    const at = content.indexOf('The courts')
    const named = { governingLaw: { value: 'England and Wales', start: at, end: at + 10 } }
    expect(risksOf(content, named).map((r) => r.code)).not.toContain('governing-law-missing')
  })

  it('raises no missing or uncapped liability risk when a sentence states a cap', () => {
    const capped = contractWith(LAW, CAP)
    const codes = risksOf(capped).map((r) => r.code)
    expect(codes).not.toContain('liability-missing')
    expect(codes).not.toContain('liability-uncapped')
    // A cap worded without "limitation" or "in no event" is still a cap (the deal sheet reads it).
    const plain = contractWith(
      LAW,
      "Liability. Supplier's total liability is capped at the fees paid in the year of the claim.",
    )
    expect(risksOf(plain).map((r) => r.code)).not.toContain('liability-missing')
    // Negative: without any cap the risk stays.
    expect(risksOf(contractWith(LAW)).map((r) => r.code)).toContain('liability-missing')
  })

  it('drops a short-notice renewal risk when another renewal passage gives long notice', () => {
    const content = contractWith(
      LAW,
      CAP,
      'Renewal. This Agreement renews automatically for successive one-year terms.',
      'Fees. Fees are payable monthly in arrears.',
      'Non-Renewal. Either party may prevent a renewal by notice of non-renewal given at least ninety (90) days before the end of the term.',
    )
    expect(risksOf(content).map((r) => r.code)).not.toContain('auto-renewal-short-notice')
    const short = content.replace('ninety (90) days', 'ten (10) days')
    expect(risksOf(short).map((r) => r.code)).toContain('auto-renewal-short-notice')
  })

  it('states only the numbers and periods its citation states', () => {
    const content = contractWith(
      LAW,
      CAP,
      'Renewal. This Agreement renews automatically for successive one-year terms.',
      'Either party may stop a renewal on fifteen (15) days notice.',
    )
    const risk = risksOf(content).find((r) => r.code === 'auto-renewal-short-notice')
    const cited = content.slice(risk?.start ?? 0, risk?.end ?? 0)
    // The period came from the sentence after the renewal: the citation takes it in.
    expect(cited).toMatch(/fifteen \(15\) days/)
    for (const number of risk?.explanation.match(/\d+/g) ?? []) expect(cited).toContain(number)
    expect(statedPeriodDays(cited)).toBe(15)
  })
})
