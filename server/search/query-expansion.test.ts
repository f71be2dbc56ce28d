import { describe, expect, it } from 'vitest'
import { expandQuery } from './query-expansion'
import type { WordNet } from './paraphrase/wordnet-synonyms'

const SYNONYMS: Record<string, string[]> = {
  destroy: ['destruct', 'ruin'],
  copies: ['copy', 'transcript', 'written matter'],
  terminate: ['can', 'end', 'terminated'],
  end: ['terminate', 'close'],
}
const wordnet: WordNet = {
  lemmas: (word) => (SYNONYMS[word] ? [word] : []),
  synonyms: (word) => SYNONYMS[word] ?? [],
}

/** WordNet alone, as before the legal lexicon (decision 0117). */
const noLexicon = () => []

describe('expandQuery', () => {
  it("lists each content word's synonyms once, in WordNet's order", () => {
    expect(expandQuery('Destroy the copies, destroy them.', wordnet, noLexicon)).toBe(
      'destruct ruin transcript written matter',
    )
  })

  it('leaves out synonyms that stem like a query word or are only stop words', () => {
    // "copy" stems as "copies"; "can" is a stop word; "terminated" stems as "terminate".
    expect(expandQuery('terminate copies', wordnet, noLexicon)).toBe(
      'end transcript written matter',
    )
    expect(expandQuery('terminate or end', wordnet, noLexicon)).toBe('close')
  })

  it('gives nothing for stop words or words WordNet lacks', () => {
    expect(expandQuery('shall not be the', wordnet)).toBe('')
    expect(expandQuery('zzqx', wordnet)).toBe('')
  })

  it("brings the legal lexicon's drafting words for plain ones, before WordNet's synonyms", () => {
    // WordNet knows "poach" only as cooking and hunting, "staff" as a stick or a body of employees.
    const expanded = expandQuery('Can they poach our staff?', wordnet)
    expect(expanded.split(' ')).toEqual(expect.arrayContaining(['solicit', 'employees']))
    expect(expandQuery('walk away from the deal', wordnet)).toMatch(/^terminate termination /)
  })
})
