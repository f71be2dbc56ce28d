import { describe, expect, it } from 'vitest'
import { RISKY_SERVICES_AGREEMENT } from '../../../test/test-contracts'
import { analyzeLocal } from './analyze-local'
import { isSubstance } from './contract-summary'

describe('summarizeContract', () => {
  it('opens with a header of key facts, each citing its passage', () => {
    const { summary } = analyzeLocal(RISKY_SERVICES_AGREEMENT, 'summarize')
    const header = summary.header ?? []
    expect(header.map((fact) => fact.label)).toEqual([
      'Type',
      'Parties',
      'Date',
      'Term',
      'Governing law',
    ])
    expect(header[1]?.value).toBe(
      'Northwind Analytics, Inc. (Provider); Contoso Retail LLC (Customer)',
    )
    for (const fact of header) expect(fact.end).toBeGreaterThan(fact.start)
    expect(summary.text.startsWith('Deal: Master Services Agreement between ')).toBe(true)
  })

  it('quotes substance sentences chosen per clause category, never definitions', () => {
    const { summary } = analyzeLocal(RISKY_SERVICES_AGREEMENT, 'summarize')
    expect(summary.sentences.length).toBeGreaterThanOrEqual(1)
    for (const sentence of summary.sentences) {
      expect(RISKY_SERVICES_AGREEMENT.slice(sentence.start, sentence.end)).toBe(sentence.text)
      expect(sentence.text).not.toMatch(/["”]\s+means\b/)
    }
    expect(summary.sentences.some((s) => s.category === 'Non-Compete')).toBe(true)
  })

  it('states the consideration when the contract names a price', () => {
    const content = [
      'SERVICES AGREEMENT',
      'This Services Agreement is made on May 3, 2021 between Juniper Labs Inc. ("Supplier") and Oakmont Clinics LLC ("Customer").',
      'Customer shall pay Supplier a fee of $12,500 per month for the Services.',
      'Supplier shall provide the Services with reasonable skill and care.',
    ].join('\n\n')
    const fact = analyzeLocal(content, 'summarize').summary.header?.find(
      (f) => f.label === 'Consideration',
    )
    expect(fact?.value).toBe('$12,500')
    expect(content.slice(fact!.start, fact!.end)).toContain('$12,500 per month')
  })

  it('keeps the extractive text for a passage that fills few deal-sheet lines', () => {
    const content =
      'We may change these terms at any time by posting a notice on the site. You should review the terms regularly because your use of the service after a change means you accept it. We may suspend your account if you break these terms or misuse the service.'
    const { summary } = analyzeLocal(content, 'summarize')
    expect(summary.dealSheet?.lines.length).toBe(13)
    expect(summary.text).not.toContain('Not found')
    expect(summary.text).toContain('We may change these terms at any time')
  })

  it.each([
    ['"Affiliate" means any entity that controls a party.', false],
    ['(b) the Territory;', false],
    ['Supplier shall deliver the Products to the Customer within thirty days of each order.', true],
  ])('treats "%s" as substance: %s', (text, expected) => {
    expect(isSubstance(text)).toBe(expected)
  })
})
