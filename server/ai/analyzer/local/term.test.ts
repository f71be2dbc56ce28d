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

  it("takes the latest of the signatures' dates, in columns, and not a label or a footer", () => {
    const filler = 'The Supplier shall deliver the goods. '.repeat(200)
    const { terms } = termsOf(
      'SUPPLY AGREEMENT',
      filler,
      'Accepted by:\n/s/ Jane Roe         3/9/21                  /s/ Omar Hale        3/14/21 -------------\nName                 Date',
      'Source: EXAMPLE CORP, 10-K, 5/2/2021',
      'SCHEDULE 1\n2.1  Contract  start:  04-01-21\n2.2  Contract  end:  04-01-23',
    )
    expect(terms.agreementDate?.value).toBe('2021-03-14')
  })

  it("takes a letter's dateline before a cued date of something else", () => {
    const { terms } = termsOf(
      'PLACEMENT AGREEMENT',
      'June 3, 2019',
      'Ladies and Gentlemen:',
      'Members holding deposits as of March 31, 2018 may subscribe for shares of Heron Bancorp, Inc. (the "Company").',
    )
    expect(terms.agreementDate?.value).toBe('2019-06-03')
  })

  it('prefers the testimonium to a preamble date that starts or ends the term', () => {
    const filler = 'The Members shall share the profits equally. '.repeat(150)
    const { terms } = termsOf(
      'JOINT VENTURE AGREEMENT between Ash Ltd and Elm Ltd. The Venture will begin on May 1, 2020 and continue until April 30, 2023.',
      filler,
      'IN WITNESS WHEREOF the Members have signed on this 12th day of May 2020.',
    )
    expect(terms.agreementDate?.value).toBe('2020-05-12')
  })

  it('skips the date of the agreement an amendment amends', () => {
    const { terms } = termsOf(
      'This Second Amendment to the Distribution and Logistics Agreement dated May 2, 2016, by and between Ash Ltd ("Ash") and Elm Ltd ("Elm") (the "Agreement") is made this 9 day of August 2019.',
    )
    expect(terms.agreementDate?.value).toBe('2019-08-09')
  })

  it('skips long-named earlier agreements and deadlines, then reads the testimonium', () => {
    const filler = 'The Executive shall endorse the products. '.repeat(150)
    const { terms } = termsOf(
      'ENDORSEMENT AGREEMENT',
      'WHEREAS, Ash Ltd entered into a Policy Collateral Assignment and Split Dollar Insurance Agreement, dated as of March 5, 1996, and loans are restricted on or after July 30, 2002.',
      filler,
      'IN WITNESS WHEREOF, the parties have executed this Agreement as of this 4th day of May, 2004.',
    )
    expect(terms.agreementDate?.value).toBe('2004-05-04')
  })

  it('reads "Place, date" above the signatures and not an earlier agreement named near them', () => {
    const filler = 'The Supplier shall deliver the goods. '.repeat(200)
    const { terms } = termsOf(
      'SUPPLY AGREEMENT',
      filler,
      'This Agreement supersedes the Confidentiality Agreement between the parties dated September 26, 2012.',
      'Hamburg, November 19th, 2012\n\nBy: /s/ Jane Roe',
    )
    expect(terms.agreementDate?.value).toBe('2012-11-19')
  })

  it('does not take a date inside a sentence near the signatures for the agreement date', () => {
    const filler = 'The Supplier shall deliver the goods. '.repeat(200)
    const { terms } = termsOf(
      'SUPPLY AGREEMENT',
      filler,
      'The first instalment shall be paid by March 25, 2019.\n\nBy: /s/ Jane Roe\nTitle: CEO',
    )
    expect(terms.agreementDate).toBeNull()
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

  it('reads a date with dashes after "day of"', () => {
    expect(
      termsOf('This Agreement is made this 1st day of --- November, 2003 by Ash Ltd and Elm Ltd.')
        .terms.agreementDate?.value,
    ).toBe('2003-11-01')
  })

  it('skips a date of another agreement and takes the date of the signature clause', () => {
    const filler = 'The Supplier shall deliver the goods. '.repeat(150)
    const { terms } = termsOf(
      'ENDORSEMENT AGREEMENT',
      'WHEREAS, Ash Ltd and Elm Ltd entered into a Supply and Services Agreement, dated as of December 5, 2015.',
      filler,
      'IN WITNESS WHEREOF, the parties have executed this Agreement as of this 4th day of April, 2021.',
    )
    expect(terms.agreementDate?.value).toBe('2021-04-04')
  })

  it('keeps a heading that dates the agreement itself', () => {
    expect(
      termsOf(
        'AFFILIATE AGREEMENT DATED JULY 15, 2005',
        'This Agreement is between Ash Ltd and Elm Ltd.',
      ).terms.agreementDate?.value,
    ).toBe('2005-07-15')
  })

  it.each([
    ['"Effective Date" means July 15, 2005.', '2005-07-15'],
    ['The commencement date for this contract will be 16th June 2004.', '2004-06-16'],
    [
      'This Agreement shall come into force on 1 January 2013 and remain valid for 1 year.',
      '2013-01-01',
    ],
  ])('reads the effective date from the definition or cue in "%s"', (sentence, expected) => {
    expect(termsOf(PREAMBLE, sentence).terms.effectiveDate?.value).toBe(expected)
  })

  it('takes the agreement date as the effective date when no other is stated', () => {
    const { terms } = termsOf(PREAMBLE, 'The Supplier shall deliver the Products.')
    expect(terms.effectiveDate?.value).toBe('2019-10-01')
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

  it.each([
    [
      'This Agreement shall commence on the Effective Date and continue in effect through December 31, 2021, unless terminated earlier.',
      '2021-12-31',
    ],
    ['"Expiration Date" means March 31, 2024.', '2024-03-31'],
    [
      'This Agreement shall continue until the fifth (5th) anniversary of the Effective Date.',
      '2024-10-01',
    ],
    [
      'The Agreement shall extend until the four (4) year anniversary of the Effective Date.',
      '2023-10-01',
    ],
    [
      'The term of this Agreement shall be ten (10) years, commencing on March 1, 2016.',
      '2026-03-01',
    ],
    ['It shall be effective on 6 May 2020 and shall have a duration of two years.', '2022-05-06'],
    [
      'Unless terminated earlier, the term of this Agreement shall continue in effect for a FIVE (5) year period.',
      '2024-10-01',
    ],
    [
      'This agreement will be in effect until the end of 2022 and will then be reviewed.',
      '2022-12-31',
    ],
    [
      'This Agreement shall remain in force for one (1) year and shall be automatically renewed for successive one (1) year periods.',
      '2020-10-01',
    ],
    [
      'This Agreement is made effective this 3rd day of March 2016 through March 2, 2019 (the "Initial Term").',
      '2019-03-02',
    ],
  ])('reads the expiration from "%s"', (sentence, expected) => {
    expect(termsOf(PREAMBLE, sentence).terms.expirationDate?.value).toBe(expected)
  })

  it('prefers a stated end date over a duration in another sentence', () => {
    const { terms } = termsOf(
      PREAMBLE,
      'This Agreement shall have an Initial Term of three (3) years.',
      'The Term shall commence on July 1, 2019 and shall expire on June 30, 2022.',
    )
    expect(terms.expirationDate?.value).toBe('2022-06-30')
  })

  it('does not count a duration from an event it cannot date', () => {
    const { terms } = termsOf(
      PREAMBLE,
      'The term of this Agreement shall end twelve (12) months after the first Launch.',
    )
    expect(terms.expirationDate).toBeNull()
  })

  it('ignores definitions of other periods and termination rights', () => {
    const { terms } = termsOf(
      PREAMBLE,
      '"Calendar Quarter" means each period of three months commencing on January 1, 2020 and ending on March 31, 2020.',
      'Either party may terminate this Agreement on thirty (30) days written notice.',
    )
    expect(terms.expirationDate).toBeNull()
  })

  it('never reads the term from a period that follows it or from what happens after the initial term', () => {
    const { terms } = termsOf(
      PREAMBLE,
      'This Agreement shall commence on the Effective Date and continue for two (2) years.',
      'During the term of this Agreement and for three (3) years thereafter, the Reseller shall keep the Supplier informed of its sales.',
      'After the Initial Term, this Agreement shall continue on a month-to-month basis until terminated by either party.',
    )
    expect(terms.expirationDate?.value).toBe('2021-10-01')
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
