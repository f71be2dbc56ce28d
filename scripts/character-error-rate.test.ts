import { describe, expect, it } from 'vitest'
import { characterErrors } from './character-error-rate'

describe('characterErrors', () => {
  it('counts substitutions, deletions and insertions, ignoring layout white space', () => {
    expect(characterErrors('governed by', 'governed\n  by')).toEqual({ errors: 0, characters: 11 })
    expect(characterErrors('New York', 'New Yark')).toEqual({ errors: 1, characters: 8 })
    expect(characterErrors('Delaware', 'Delware')).toEqual({ errors: 1, characters: 8 })
    expect(characterErrors('LLC', 'LLC.')).toEqual({ errors: 1, characters: 3 })
    expect(characterErrors('', 'abc')).toEqual({ errors: 3, characters: 0 })
  })
})
