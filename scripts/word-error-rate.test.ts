import { describe, expect, it } from 'vitest'
import { normaliseWords, wordErrors } from './word-error-rate'

describe('word error rate', () => {
  it('lower-cases and drops punctuation but keeps apostrophes inside words', () => {
    expect(normaliseWords("And so, my fellow Americans: don't 'ask'!")).toEqual([
      'and',
      'so',
      'my',
      'fellow',
      'americans',
      "don't",
      'ask',
    ])
  })

  it('reads a typographic apostrophe as the ASCII one, and NFKC-normalises', () => {
    expect(normaliseWords('Don’t ‘quote’ the ﬁrm’s clients')).toEqual([
      "don't",
      'quote',
      'the',
      "firm's",
      'clients',
    ])
    expect(wordErrors('the lessee’s duty', "the lessee's duty")).toEqual({ errors: 0, words: 3 })
  })

  it('counts substitutions, deletions and insertions (hand-computed)', () => {
    expect(wordErrors('ask not what your country', 'ask what your county can')).toEqual({
      errors: 3, // 'not' deleted, 'country' → 'county', 'can' inserted
      words: 5,
    })
    expect(wordErrors('a b c', 'a b c')).toEqual({ errors: 0, words: 3 })
    expect(wordErrors('a b', '')).toEqual({ errors: 2, words: 2 })
  })
})
