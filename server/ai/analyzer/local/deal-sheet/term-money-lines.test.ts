import { describe, expect, it } from 'vitest'
import type { DealSheetKey } from '../../types'
import { analyzeLocal } from '../analyze-local'

const OPENING =
  'SERVICES AGREEMENT\n\nThis Services Agreement is made on May 1, 2022 between Ivy Works Inc. ("Provider") and Juno Health LLC ("Customer").\n\n'

function lineValue(body: string, key: DealSheetKey): string | null {
  const sheet = analyzeLocal(OPENING + body, 'summarize').summary.dealSheet
  return sheet?.lines.find((l) => l.key === key)?.value ?? null
}

describe('term line', () => {
  it('reads a start-and-end sentence that never says "term"', () => {
    expect(
      lineValue(
        'This Agreement shall commence upon delivery of the first Product and shall remain in effect until the last Product is returned.',
        'term',
      ),
    ).toBe('as stated in the term clause')
  })

  it('reads the sentence after a "Term" heading', () => {
    expect(
      lineValue(
        '4.1 Term.\n\nThe Provider will provide the Services for the period set out in the Order Form.',
        'term',
      ),
    ).toBe('as stated in the term clause')
  })

  it('reads a defined term of another name ("the Cooperation Term")', () => {
    expect(
      lineValue('The Cooperation Term of the parties shall be two years from May 1, 2022.', 'term'),
    ).toMatch(/^initial term 2 years/)
  })

  it('does not take "during the term" or what survives the term for the term', () => {
    expect(
      lineValue(
        'The Provider shall keep records during the term of this Agreement. The obligations in Section 5 survive the expiration of this Agreement for a period of three (3) years.',
        'term',
      ),
    ).toBeNull()
  })
})

describe('money line', () => {
  it('reports a duty to pay whose figure is redacted or in a schedule', () => {
    expect(
      lineValue('The Customer shall pay the fees set out in Schedule B for the Services.', 'money'),
    ).toBe('Customer pays: amount set in a schedule or redacted')
  })

  it('reports a royalty-free deal as one without payment', () => {
    expect(
      lineValue(
        'The Provider grants the Customer a royalty-free license to use the reports for its own business.',
        'money',
      ),
    ).toBe('no payment stated (royalty-free or without charge)')
  })

  it('reads a revenue share with its rate', () => {
    expect(
      lineValue(
        'The Customer shall pay the Provider a royalty of 5% of Net Sales of the Products each quarter.',
        'money',
      ),
    ).toBe('Customer → Provider: 5% of Net Sales, quarterly')
  })

  it('does not take an amount that is no price for money', () => {
    expect(
      lineValue('The Provider has at least 250 employees and 12 offices in 3 countries.', 'money'),
    ).toBeNull()
  })
})
