import { describe, expect, it } from 'vitest'
import { extractKeyTerms } from './key-terms'
import { segmentSentences } from './sentences'

function keyTermsOf(content: string) {
  return extractKeyTerms(content, segmentSentences(content))
}

function governingLaw(sentence: string): string | undefined {
  return keyTermsOf(
    `SERVICES AGREEMENT\n\n1. Services. The supplier provides the services.\n\n2. Law. ${sentence}\n`,
  ).governingLaw?.value
}

describe('extractKeyTerms', () => {
  it.each([
    ['This Agreement shall be governed by the laws of the State of New York.', 'New York'],
    ['This Agreement is governed by the laws of England and Wales.', 'England and Wales'],
    ['THIS AGREEMENT SHALL BE CONSTRUED UNDER THE LAWS OF THE STATE OF DELAWARE.', 'Delaware'],
    ['The laws of the Commonwealth of Massachusetts shall govern this Agreement.', 'Massachusetts'],
    ['This Agreement is governed by the laws in force in the Province of Ontario.', 'Ontario'],
    ['This Agreement shall be construed in accordance with English law.', 'England'],
    [
      'This Agreement shall be governed by the laws of the State of California and the federal laws of the United States.',
      'California',
    ],
    [
      'This Agreement shall be governed by the laws of the State of New York, except that matters of corporate governance are governed by the Delaware General Corporation Law.',
      'New York',
    ],
    [
      'This Agreement shall be construed in accordance with, and governed by, the\n\n\n\nlaws of the State of Georgia, without regard to its conflicts rules.',
      'Georgia',
    ],
    ['The legislation of the Republic of Kazakhstan shall apply to this Contract.', 'Kazakhstan'],
    [
      'This Contract is governed in all its parts by the regulations of the Republic of Colombia.',
      'Colombia',
    ],
    [
      'This Agreement shall be construed, and the rights of the Parties determined, according to the substantive law of the State of Delaware.',
      'Delaware',
    ],
    ['The Master Franchise Agreement requires application of the laws of New York.', 'New York'],
    ['Any dispute hereunder shall be settled pursuant to the laws of the R.O.C.', 'Taiwan'],
  ])('normalises "%s" to %s', (sentence, expected) => {
    expect(governingLaw(sentence)).toBe(expected)
  })

  it('does not take a party’s state of incorporation for the governing law', () => {
    const content =
      'This Agreement is made between Acme, Inc., a corporation organized under the laws of the State of Delaware ("Acme"), and Beta LLC ("Beta").'
    expect(keyTermsOf(content).governingLaw).toBeNull()
  })

  it('reads the parties from the preamble, each with its own span', () => {
    const content =
      'LICENSE AGREEMENT\n\nThis License Agreement is entered into by and between Jupiter Media Holdings, Inc., a Nevada corporation ("Licensor"), and Saturn Games Ltd., with offices in London ("Licensee").\n\nWHEREAS the parties wish to cooperate.'
    const { parties } = keyTermsOf(content)
    expect(parties.map((p) => p.name)).toEqual([
      'Jupiter Media Holdings, Inc.',
      'Saturn Games Ltd.',
    ])
    for (const party of parties) expect(content.slice(party.start, party.end)).toBe(party.name)
  })

  it('joins a party name wrapped over two lines, as PDF text often is', () => {
    const content =
      'This Agreement is entered into by and between Northwind Analytics, Inc. ("Provider"), and Contoso\nLegal LLP, a New York partnership ("Client").'
    const { parties } = keyTermsOf(content)
    expect(parties.map((p) => p.name)).toEqual(['Northwind Analytics, Inc.', 'Contoso Legal LLP'])
    expect(content.slice(parties[1]!.start, parties[1]!.end)).toBe('Contoso\nLegal LLP')
  })

  it("finds a party named after the previous party's description and address", () => {
    const content =
      'This Agreement is by and between About.com, Inc. ("About"), a Delaware corporation, located at 1440 Broadway, New York, NY 10018 and\nebix.com, Inc. ("ebix"), a Delaware corporation.'
    const { parties } = keyTermsOf(content)
    expect(parties.map((p) => p.name)).toEqual(['About.com, Inc.', 'ebix.com, Inc.'])
    for (const party of parties) expect(content.slice(party.start, party.end)).toBe(party.name)
  })

  it('normalises dates, renewal term and notice period', () => {
    const content = [
      'DISTRIBUTION AGREEMENT',
      'This Distribution Agreement is made on the 8th day of May, 2014 between Orion Foods Corp. ("Orion") and Vega Stores, Inc. ("Vega").',
      'This Agreement shall be effective as of June 1, 2014 (the "Effective Date").',
      'The initial term of this Agreement shall expire on 12/31/2016.',
      'Thereafter the term shall automatically renew for successive one (1) year periods unless either party gives notice of non-renewal at least sixty (60) days prior to expiration.',
    ].join('\n\n')
    const terms = keyTermsOf(content)
    expect(terms.agreementDate?.value).toBe('2014-05-08')
    expect(terms.effectiveDate?.value).toBe('2014-06-01')
    expect(terms.expirationDate?.value).toBe('2016-12-31')
    expect(terms.renewalTerm?.value).toBe('1 year')
    expect(terms.noticePeriod?.value).toBe('60 days')
    const quoted = (term: { start: number; end: number } | null) =>
      term && content.slice(term.start, term.end)
    expect(quoted(terms.agreementDate)).toBe('8th day of May, 2014')
    expect(quoted(terms.renewalTerm)).toContain('successive one (1) year periods')
    expect(quoted(terms.noticePeriod)).toContain('sixty (60) days')
  })

  it('computes the expiration date from a term counted from the effective date', () => {
    const content =
      'This Agreement is effective as of January 15, 2020 (the "Effective Date"). The term of this Agreement is a period of three (3) years from the Effective Date.'
    expect(keyTermsOf(content).expirationDate?.value).toBe('2023-01-15')
  })

  it('returns nulls and no parties for a text without key terms', () => {
    const terms = keyTermsOf('Meeting notes. We discussed the budget and agreed to meet again.')
    expect(terms).toEqual({
      parties: [],
      agreementDate: null,
      effectiveDate: null,
      expirationDate: null,
      governingLaw: null,
      renewalTerm: null,
      noticePeriod: null,
    })
  })
})
