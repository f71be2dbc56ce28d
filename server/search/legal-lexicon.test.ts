import { describe, expect, it } from 'vitest'
import { legalTerms } from './legal-lexicon'

describe('legalTerms', () => {
  it('gives a plain word its drafting words: poach → solicit, staff → employees, personnel', () => {
    const terms = legalTerms('Can they poach our staff?')
    expect(terms).toEqual(expect.arrayContaining(['solicit', 'recruit', 'employees', 'personnel']))
  })

  it('matches inflected words by stem: "shredded" finds the destruction group', () => {
    expect(legalTerms('the papers were shredded')).toEqual(
      expect.arrayContaining(['destroy', 'destruction', 'documents']),
    )
  })

  it('leaves contract vocabulary alone: "disclose confidential information" brings nothing', () => {
    // Each is common in contracts (word-vectors.bin): the clause says them itself.
    expect(legalTerms('The Receiving Party shall not disclose Confidential Information')).toEqual(
      [],
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
