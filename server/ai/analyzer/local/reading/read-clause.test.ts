import { describe, expect, it } from 'vitest'
import type { Party } from '../../types'
import { assertedText } from './asserted-text'
import { clauseEffect } from './clause-effect'
import { readClause } from './read-clause'

/** A party as the party reader returns it: a name and the defined term the contract gives it. */
function party(name: string, term: string): Party {
  return {
    name,
    start: 0,
    end: name.length,
    definedTerm: { start: 0, end: term.length, text: term },
  }
}

const COMPANY = party('Birch Biotech Inc.', 'Company')
const DISTRIBUTOR = party('Harbour Foods Ltd', 'Distributor')
const EXECUTIVE = party('Jane Doe', 'Executive')
const PARTIES = [COMPANY, DISTRIBUTOR]

describe('readClause', () => {
  it('reads "shall not, without prior written consent, disclose" as a prohibition with a consent exception', () => {
    const reading = readClause(
      'The Distributor shall not, without the prior written consent of the Company, disclose any Confidential Information to a third party.',
      PARTIES,
    )
    expect(reading.modality).toBe('must-not')
    expect(reading.who).toEqual([DISTRIBUTOR.name])
    expect(reading.action).toBe('disclose')
    expect(reading.object).toMatch(/^any Confidential Information/)
    expect(reading.exceptions).toContainEqual(
      expect.objectContaining({ kind: 'consent', of: [COMPANY.name] }),
    )
  })

  it('puts a one-sided obligation on the obliged party, not the one named in a leading phrase', () => {
    const reading = readClause(
      'Upon request of the Company, the Distributor shall deliver the Products within ten days.',
      PARTIES,
    )
    expect(reading.who).toEqual([DISTRIBUTOR.name])
    expect(reading.modality).toBe('must')
    expect(reading.action).toBe('deliver')
    expect(reading.exceptions.map((e) => e.kind)).toContain('condition')
  })

  it('puts a mutual obligation on both parties', () => {
    expect(
      readClause('The Company and the Distributor shall each keep records.', PARTIES).who,
    ).toEqual([COMPANY.name, DISTRIBUTOR.name])
    const each = readClause('Neither party shall assign this Agreement.', PARTIES)
    expect(each).toMatchObject({ everyParty: true, modality: 'must-not' })
    expect(each.who).toEqual([COMPANY.name, DISTRIBUTOR.name])
  })

  it('puts an employee’s covenant on the employee, through "agree that"', () => {
    const reading = readClause(
      'The Company and the Executive agree that, during the Restricted Period, the Executive shall not compete with the Company.',
      [COMPANY, EXECUTIVE],
    )
    expect(reading.who).toEqual([EXECUTIVE.name])
    expect(reading.modality).toBe('must-not')
  })

  it('reads "the covenant not to compete" as a noun, not as a prohibition (false-presence failure, decision 0140)', () => {
    const reading = readClause(
      'Subject to compliance with the covenant not to compete in Section 8.3, the Company hereby grants to the Distributor a royalty-free license.',
      PARTIES,
    )
    expect(reading.modality).not.toBe('must-not')
    expect(
      readClause('The Distributor covenants not to compete with the Company.', PARTIES).modality,
    ).toBe('must-not')
  })

  it('reads the provision after a leading condition, not the condition’s own modal', () => {
    const reading = readClause(
      'If the Distributor shall fail to pay any invoice, the Company may suspend deliveries.',
      PARTIES,
    )
    expect(reading).toMatchObject({ who: [COMPANY.name], modality: 'may', action: 'suspend' })
  })

  it('reads "free to compete" and "nothing herein shall prevent" as freedoms, not covenants', () => {
    expect(
      readClause('The Distributor is free to compete with the Company.', PARTIES),
    ).toMatchObject({
      freedom: true,
      modality: 'may',
    })
    expect(
      readClause(
        'Nothing herein shall prevent the Distributor from selling competing products.',
        PARTIES,
      ).freedom,
    ).toBe(true)
    expect(readClause('The Distributor shall not sell competing products.', PARTIES).freedom).toBe(
      false,
    )
  })

  it('reads leave not to act as need-not, not as a prohibition', () => {
    expect(
      readClause('The Company shall not be required to purchase any minimum quantity.', PARTIES)
        .modality,
    ).toBe('need-not')
  })
})

describe('clauseEffect', () => {
  it.each([
    ['Section 7 (Non-Competition) of the Agreement is hereby deleted in its entirety.', 'deletes'],
    ['The non-compete covenant in Section 7 shall no longer apply.', 'deletes'],
    ['Section 4.1 is hereby amended to read as follows: "The Term shall be five years."', 'amends'],
    ['The Distributor shall not compete with the Company.', 'adds'],
  ])('reads %j as %s', (text, effect) => {
    expect(clauseEffect(text)).toBe(effect)
  })
})

describe('assertedText', () => {
  it('blanks what a sentence denies and keeps its length', () => {
    const text = 'Either party may terminate this Agreement without any early termination penalty.'
    const asserted = assertedText(text)
    expect(asserted).toHaveLength(text.length)
    expect(asserted).not.toMatch(/penalty/)
    expect(asserted).toMatch(/may terminate/)
    expect(assertedText('a non-exclusive licence')).not.toMatch(/exclusive/)
    expect(assertedText('Acme ULC, an unlimited liability company, shall pay')).not.toMatch(
      /liability/,
    )
    expect(assertedText('Customer shall pay an early termination fee of $5,000.')).toMatch(/fee/)
  })
})
