import { describe, expect, it } from 'vitest'
import { extractKeyTerms } from './key-terms'
import { segmentSentences } from './sentences'

function termsOf(...paragraphs: string[]) {
  const content = paragraphs.join('\n\n')
  return { content, terms: extractKeyTerms(content, segmentSentences(content)) }
}

const PREAMBLE =
  'This Reseller Agreement is made on the 1s t day of October, 2019 between Larkspur Devices Inc. ("Supplier") and Fenwick Retail LLC ("Reseller").'

describe('agreement and effective dates', () => {
  it('reads a date whose ordinal was split by text extraction', () => {
    expect(termsOf(PREAMBLE).terms.agreementDate?.value).toBe('2019-10-01')
  })

  it('ignores the date of another agreement and a filing footer', () => {
    const { terms } = termsOf(
      'Source: EXAMPLE CORP, 10-K, 3/2/2021',
      'This Amendment amends the Supply Agreement dated March 3, 2015 and is dated as of June 9, 2020, between Orla Foods Inc. ("Orla") and Pike Farms LLC ("Pike").',
    )
    expect(terms.agreementDate?.value).toBe('2020-06-09')
  })

  it('reads leading underscores and d-m-yy dates', () => {
    expect(
      termsOf(
        'This Agreement is dated ____15 January 2021 between Ash Ltd ("Ash") and Elm Ltd ("Elm").',
      ).terms.agreementDate?.value,
    ).toBe('2021-01-15')
    expect(
      termsOf('This Agreement is dated 25-12-20 between Ash Ltd ("Ash") and Elm Ltd ("Elm").').terms
        .agreementDate?.value,
    ).toBe('2020-12-25')
  })

  it('reads a date only given in the signature block', () => {
    const filler = 'The Supplier shall deliver the goods. '.repeat(200)
    const { terms } = termsOf(
      'SUPPLY AGREEMENT',
      filler,
      'Signed for and on behalf of the Supplier\nName: Jane Roe\nDate: 4/15/2022',
    )
    expect(terms.agreementDate?.value).toBe('2022-04-15')
  })

  it.each([
    ['This Agreement shall commence on February 1, 2020.', '2020-02-01'],
    ['The term of this Agreement begins on March 15, 2021.', '2021-03-15'],
    ['This Agreement shall be effective as from 1 July 2018.', '2018-07-01'],
    ['The term of this Agreement shall commence upon April 3, 2017.', '2017-04-03'],
    ['Order Form No. 7 Effective Date: 11/4/10 Customer: Fenwick Retail LLC', '2010-11-04'],
    ['This Licence is granted on May 5, 2016 ("EffectiveDate") to the Reseller.', '2016-05-05'],
  ])('reads the effective date from "%s"', (sentence, expected) => {
    expect(termsOf(PREAMBLE, sentence).terms.effectiveDate?.value).toBe(expected)
  })

  it('takes the agreement date when the contract commences upon execution', () => {
    const { terms } = termsOf(PREAMBLE, 'This Agreement commences upon execution of this document.')
    expect(terms.effectiveDate?.value).toBe('2019-10-01')
  })

  it('takes the agreement date when the contract is effective upon execution', () => {
    const { terms } = termsOf(
      PREAMBLE,
      'This Agreement shall become effective upon execution by both parties (the "Effective Date").',
    )
    expect(terms.effectiveDate?.value).toBe('2019-10-01')
  })
})

describe('expiration date', () => {
  it('computes the expiration from "for a period of N years" and cites the passage', () => {
    const sentence =
      'The initial term of this Agreement shall commence on the Effective Date and continue for a period of three (3) years.'
    const { content, terms } = termsOf(
      PREAMBLE,
      'This Agreement is effective as of January 1, 2020 (the "Effective Date").',
      sentence,
    )
    expect(terms.expirationDate?.value).toBe('2023-01-01')
    expect(content.slice(terms.expirationDate!.start, terms.expirationDate!.end)).toBe(sentence)
  })

  it('computes the expiration from "until the fifth anniversary"', () => {
    const { terms } = termsOf(
      PREAMBLE,
      'The term of this Agreement shall run until the fifth anniversary of the date hereof.',
    )
    expect(terms.expirationDate?.value).toBe('2024-10-01')
  })

  it('reads the end of "commencing X and ending Y"', () => {
    const { terms } = termsOf(
      PREAMBLE,
      'The term is twelve months commencing March 1, 2020 and ending February 28, 2021.',
    )
    expect(terms.expirationDate?.value).toBe('2021-02-28')
  })

  it('reports a term that runs until terminated as perpetual', () => {
    const { terms } = termsOf(
      PREAMBLE,
      'This Agreement shall continue in full force and effect until terminated by either party in accordance with Section 9.',
    )
    expect(terms.expirationDate?.value).toBe('perpetual')
  })

  it('never takes a post-termination non-compete or sell-off period for the term', () => {
    const { terms } = termsOf(
      PREAMBLE,
      'For a period of two (2) years after the term of this Agreement, the Reseller shall not compete with the Supplier.',
      'Upon expiration of the term, the Reseller may sell off its inventory for a period of six (6) months.',
    )
    expect(terms.expirationDate).toBeNull()
  })
})

describe('renewal term and notice period', () => {
  it('reads the notice from the renewal sentence, not from a nearby notice clause', () => {
    const { terms } = termsOf(
      PREAMBLE,
      'Either party may terminate this Agreement for convenience on thirty (30) days written notice.',
      'This Agreement shall automatically renew for successive two (2) year terms unless either party notifies the other of non-renewal at least ninety (90) days prior to the end of the then-current term.',
    )
    expect(terms.renewalTerm?.value).toBe('2 years')
    expect(terms.noticePeriod?.value).toBe('90 days')
  })

  it.each([
    [
      'This Agreement will automatically renew for one or more annual periods unless either party gives notice.',
      '1 year',
    ],
    ['The Customer may renew the Services for further periods of six (6) months each.', '6 months'],
    [
      'Thereafter this Agreement shall continue on a month-to-month basis unless either party gives notice of non-renewal.',
      '1 month',
    ],
  ])('reads the renewal term from "%s"', (sentence, expected) => {
    expect(termsOf(PREAMBLE, sentence).terms.renewalTerm?.value).toBe(expected)
  })

  it('reports no notice period when the renewal sentence states none', () => {
    const { terms } = termsOf(
      PREAMBLE,
      'Either party may terminate this Agreement on thirty (30) days written notice.',
      'Thereafter this Agreement shall renew automatically for additional one (1) year periods.',
    )
    expect(terms.renewalTerm?.value).toBe('1 year')
    expect(terms.noticePeriod).toBeNull()
  })
})
