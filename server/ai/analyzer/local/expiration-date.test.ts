import { describe, expect, it } from 'vitest'
import type { KeyTerm } from '../types'
import { durationFrom, DURATION_SOURCE } from './dates'
import { findExpirationDate } from './expiration-date'

/**
 * The expiration read from one term sentence, the contract effective on `effective` and dated
 * `agreement` (ISO; the effective date when not given).
 */
function expiryOf(
  sentence: string,
  effective = '2018-02-13',
  agreement = effective,
): string | null {
  const anchor = (value: string): KeyTerm => ({ value, start: 0, end: 0 })
  return (
    findExpirationDate(
      [{ text: sentence, start: 0, end: sentence.length }],
      anchor(effective),
      anchor(agreement),
    )?.value ?? null
  )
}

describe('findExpirationDate (issue 48: term sentences it missed)', () => {
  it('reads the initial term when its renewal runs "after the Initial Term"', () => {
    expect(
      expiryOf(
        'Unless earlier terminated as provided herein, this Agreement continues in effect for an initial term of seven (7) years ("Initial Term") and will automatically renew for one or more annual periods after the Initial Term unless either party gives notice of non-renewal.',
      ),
    ).toBe('2025-02-13')
  })

  it('does not take "shall extend for a period of" for a renewal', () => {
    expect(
      expiryOf(
        'This Agreement shall commence on the Effective Date and shall extend for a period of Five (5) years thereafter ("Initial Term"), unless this Agreement is terminated earlier.',
      ),
    ).toBe('2023-02-13')
  })

  it('counts "ending two (2) years thereafter"', () => {
    expect(
      expiryOf(
        'Unless sooner terminated, this Agreement will continue in full force beginning on the Effective Date and ending two (2) years thereafter ("Term").',
      ),
    ).toBe('2020-02-13')
  })

  it('counts "from and after the Effective Date"', () => {
    expect(
      expiryOf(
        'This Agreement will become effective as of the Effective Date and shall remain effective for two (2) years from and after the Effective Date (the "Initial Term").',
      ),
    ).toBe('2020-02-13')
  })

  it('takes the date after "shall end as of" for the end, not the start', () => {
    expect(
      expiryOf(
        'The Term shall commence on the date of this Agreement and, unless earlier terminated, shall end as of December 31, 2000.',
      ),
    ).toBe('2000-12-31')
  })

  it('reads the term of a promotion, not only of an agreement', () => {
    expect(
      expiryOf('This promotion shall begin on June 1, 1999 and shall terminate June 1, 2000.'),
    ).toBe('2000-06-01')
  })

  it('reads an unquoted "Initial Term shall mean" definition', () => {
    expect(
      expiryOf(
        'Initial Term shall mean the Effective Date through the day prior to the fourth anniversary of the Effective Date, unless earlier terminated pursuant to Section 8.',
        '1999-09-30',
      ),
    ).toBe('2003-09-29')
  })

  it('counts a term defined in brackets from the start the sentence names', () => {
    expect(
      expiryOf(
        'This contract shall remain in effect initially for the five (5) year term ("Initial Term") from the date of this Agreement.',
        '2017-06-01',
        '2017-05-17',
      ),
    ).toBe('2022-05-17')
  })

  it('reads "twenty-four (24) months" and "ten (10) Contract Years"', () => {
    expect(expiryOf('The term of this Agreement is twenty-four (24) months.', '2017-06-30')).toBe(
      '2019-06-30',
    )
    expect(
      expiryOf(
        'This Agreement shall commence on the Effective Date and shall continue for ten (10) Contract Years, unless terminated earlier.',
        '2012-06-13',
      ),
    ).toBe('2022-06-13')
  })
})

describe('findExpirationDate under a "Term and Renewal" caption (decision 0129)', () => {
  it('does not let "Renewal" in the caption cut off the term statement after it', () => {
    expect(
      expiryOf(
        '7. Term and Renewal. The term of this Agreement shall be two (2) years, commencing March 1, 2016 and ending on February 28, 2018.',
      ),
    ).toBe('2018-02-28')
  })

  it('reads the term after a caption set off by spaces instead of a full stop', () => {
    expect(
      expiryOf(
        '5. Term and Renewal  The term of this Agreement shall begin on the Effective Date and continue in effect for a period of three (3) years (the "Initial Term"), unless sooner terminated as provided herein.',
      ),
    ).toBe('2021-02-13')
  })
})

describe('findExpirationDate with "the later of" (decision 0129)', () => {
  it('reads the first arm\'s duration of "shall expire on the later of (i) … years …, or (ii) …"', () => {
    expect(
      expiryOf(
        'This Agreement shall be effective as of the date first written above and shall expire on the later of (i) three (3) years from the date hereof, or (ii) the completion of every Statement of Work then open.',
      ),
    ).toBe('2021-02-13')
  })
})

describe('DURATION_SOURCE', () => {
  it('reads hyphenated number words without figures ("thirty-six months")', () => {
    const m = new RegExp(DURATION_SOURCE, 'i').exec('for thirty-six months')
    expect(m && durationFrom(m, 1)).toEqual({ amount: 36, unit: 'month' })
  })
})

describe('findExpirationDate: expiration misses by kind (decision 0133)', () => {
  it('does not read a right to terminate ("this Agreement may be terminated …") as the term (termination-right failure)', () => {
    const right =
      '(d) If the parties fail to agree upon a plan for the Contract Year ending October 31, 1999, this Agreement may be terminated by either party upon giving at least thirty (30) days notice.'
    const term =
      'This Agreement will become effective as of the date first written above and will continue in effect thereafter until terminated pursuant to Paragraph 4.2 below.'
    const anchor: KeyTerm = { value: '1999-03-29', start: 0, end: 0 }
    const sentences = [right, term].map((text, i) => ({
      text,
      start: i * 1000,
      end: i * 1000 + text.length,
    }))
    expect(findExpirationDate(sentences, anchor, anchor)?.value).toBe('perpetual')
  })

  it('reads a term named by an adjective ("The effective term is …") (term-subject failure)', () => {
    expect(
      expiryOf(
        'The effective term is 12 months beginning March 1, 2005 and ending February 28, 2006.',
      ),
    ).toBe('2006-02-28')
  })

  it('counts an anniversary "of the date of this Agreement" from the agreement date, not the stated start (anchor failure)', () => {
    expect(
      expiryOf(
        'The term of this Agreement (the "Term") will begin on February 1, 1998 and end on the first anniversary of the date of this Agreement.',
        '1998-02-01',
        '1998-01-26',
      ),
    ).toBe('1999-01-26')
  })
})
