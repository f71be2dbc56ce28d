import { describe, expect, it } from 'vitest'
import { contractDatesIn, isCitedDate } from './contract-dates'
import { extractKeyTerms } from './key-terms'
import { segmentSentences } from './sentences'

function keyDates(content: string) {
  const terms = extractKeyTerms(content, segmentSentences(content))
  return {
    agreement: terms.agreementDate?.value ?? null,
    effective: terms.effectiveDate?.value ?? null,
    expiration: terms.expirationDate?.value ?? null,
  }
}

describe('isCitedDate', () => {
  it.each([
    ['the Belgian Act of 13 April 1995 on commercial agency', '13 April 1995'],
    ['Regulation (EU) 2016/679 of 27 April 2016', '27 April 2016'],
    ['Regulation (EU) 2016/679 of 27 April 2016, effective from 25 May 2018', '25 May 2018'],
    ['the Royal Decree of 10 May 2015', '10 May 2015'],
    ['the Services described in Schedule A dated January 5, 2020', 'January 5, 2020'],
    ['under Purchase Order No. 7 of March 2, 2021', 'March 2, 2021'],
  ])('drops the date of a cited instrument: %s', (text, date) => {
    expect(isCitedDate(text, text.indexOf(date))).toBe(true)
  })

  it.each([
    ['This Agreement is made on 1 March 2021 between the parties', '1 March 2021'],
    ['governed by the laws of the State of New York and dated May 1, 2021', 'May 1, 2021'],
    [
      'The parties shall comply with the Act. This Agreement takes effect on 1 June 2021',
      '1 June 2021',
    ],
    ['pursuant to the Act, this Agreement shall expire on 30 June 2024', '30 June 2024'],
  ])('keeps the contract’s own date: %s', (text, date) => {
    expect(isCitedDate(text, text.indexOf(date))).toBe(false)
  })

  it('keeps offsets into the document when filtering', () => {
    const text = 'See the Act of 6 April 2010. Signed on 3 May 2021.'
    expect(contractDatesIn(text, 100)).toEqual([
      { value: '2021-05-03', start: 100 + text.indexOf('3 May'), end: 100 + text.length - 1 },
    ])
  })
})

describe('key dates never come from cited laws or schedules', () => {
  it('does not date the agreement by a statute its preamble cites', () => {
    expect(
      keyDates(
        'DISTRIBUTION AGREEMENT\n\nThis Agreement is entered into between Alpha BV ("Supplier") and Beta SA ("Distributor").\n\nThe parties acknowledge the Belgian Act of 13 April 1995 on commercial agency. This Agreement takes effect on the date of its signature.',
      ),
    ).toEqual({ agreement: null, effective: null, expiration: null })
  })

  it('does not take a regulation’s dates or a schedule’s date for the contract’s', () => {
    const dates = keyDates(
      'SERVICES AGREEMENT\n\nThis Agreement is made between Alpha Inc. ("Provider") and Beta LLC ("Customer").\n\nThe Services are described in Schedule A dated January 5, 2020. The Provider shall comply with Regulation (EU) 2016/679 of 27 April 2016 effective from 25 May 2018.',
    )
    expect(dates.agreement).toBeNull()
    expect(dates.effective).toBeNull()
  })

  it('does not take a statute’s date for the effective date beside the contract’s own', () => {
    expect(
      keyDates(
        'SERVICES AGREEMENT\n\nThis Agreement dated as of May 1, 2021 is made between Alpha Inc. ("Provider") and Beta LLC ("Customer"). The Provider shall comply with the Act of 6 April 2010 on market practices, effective 12 May 2010.',
      ).effective,
    ).not.toBe('2010-05-12')
  })

  it('does not take the end of the term for the agreement date', () => {
    expect(
      keyDates(
        'SUPPLY AGREEMENT\n\nThis Agreement is made between Alpha BV ("Supplier") and Beta SA ("Buyer").\n\nThis Agreement shall expire on December 31, 2025.',
      ).agreement,
    ).toBeNull()
  })
})
