import { describe, expect, it } from 'vitest'
import { CUE_RULES } from './cue-rules'

function cue(category: string): RegExp {
  const rule = CUE_RULES[category]
  if (!rule) throw new Error(`no cue for ${category}`)
  return rule
}

describe('CUE_RULES', () => {
  it('tells a named third-party beneficiary from the usual disclaimer', () => {
    const rule = cue('Third Party Beneficiary')
    expect(
      rule.test('Each Indemnified Party is an intended third party beneficiary of Section 9.'),
    ).toBe(true)
    expect(rule.test('There are no intended third party beneficiaries of this Agreement.')).toBe(
      false,
    )
  })

  it('finds a promise to pass on better prices given to other customers', () => {
    expect(
      cue('Most Favored Nation').test(
        'If Supplier offers pricing more favorable than the above to any other customer, Supplier shall extend the same pricing to Buyer.',
      ),
    ).toBe(true)
  })

  it('finds a price freeze', () => {
    expect(
      cue('Price Restrictions').test('The prices shall remain fixed for the first year.'),
    ).toBe(true)
  })

  it('finds a promise not to lure customers away', () => {
    expect(
      cue('No-Solicit Of Customers').test(
        'Distributor shall not induce any customer of Company to terminate or reduce its business with Company.',
      ),
    ).toBe(true)
  })
})
