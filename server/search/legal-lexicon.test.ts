import { describe, expect, it } from 'vitest'
import { legalTerms } from './legal-lexicon'

describe('legalTerms', () => {
  it('gives a plain word its drafting words: poach → solicit, staff → employees, personnel', () => {
    const terms = legalTerms('Can they poach our staff?')
    expect(terms).toEqual(expect.arrayContaining(['solicit', 'recruit', 'employees', 'personnel']))
  })

  it('matches inflected words by stem: "terminated" finds the termination group', () => {
    expect(legalTerms('the contract was terminated')).toEqual(
      expect.arrayContaining(['termination', 'cancel', 'agreement']),
    )
  })

  it('matches phrases word for word, not their words alone', () => {
    expect(legalTerms('hand back the papers')).toEqual(
      expect.arrayContaining(['return', 'documents']),
    )
    expect(legalTerms('take apart the prototype')).toContain('disassemble')
    expect(legalTerms('take the papers apart')).not.toContain('disassemble')
  })

  it('gives nothing for a query touching no group', () => {
    expect(legalTerms('zzqx the')).toEqual([])
  })
})
