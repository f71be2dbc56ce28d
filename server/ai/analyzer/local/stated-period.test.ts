import { describe, expect, it } from 'vitest'
import { statedPeriodDays } from './stated-period'

describe('statedPeriodDays', () => {
  it.each([
    ['unless either party gives notice at least one hundred eighty (180) days before', 180],
    ['on ten (10) days written notice', 10],
    ['upon thirty days prior written notice', 30],
    ['at least 3 months before the end of the term', 90],
    ['no later than sixty (60) calendar days prior to expiry', 60],
    ['by notice given 2 weeks in advance', 14],
    ['on fifty days written notice', 50],
    ['on fourteen days notice', 14],
    ['no later than eighteen months before expiry', 540],
  ])('reads %s as %i days', (text, days) => {
    expect(statedPeriodDays(text)).toBe(days)
  })

  it('prefers the period tied to notice over a renewal term', () => {
    expect(
      statedPeriodDays(
        'This Agreement renews for successive one (1) year terms unless a party gives ninety (90) days notice.',
      ),
    ).toBe(90)
  })

  it('does not read "a month" as a period of one month', () => {
    expect(statedPeriodDays('renews on a month to month basis unless notice is given')).toBeNull()
  })

  it('is null when the passage states no period of notice', () => {
    expect(statedPeriodDays('This Agreement renews automatically unless terminated.')).toBeNull()
  })
})
