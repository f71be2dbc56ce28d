import { describe, expect, it } from 'vitest'
import { boundedWink } from './wink'

/** A sentence wink splits after "U.S.C.." until it has read "U.S.C" as a word of its own. */
const CITED = 'It is not debarred under the Act (21 U.S.C.. § 335(a)) and is not investigated.'
const TEACHES = 'The Act (21 U.S.C § 321 et seq.) applies.'

const sentences = (nlp: ReturnType<typeof boundedWink>, text: string) =>
  nlp.readDoc(text).sentences().out() as string[]

describe('boundedWink', () => {
  it('reads as a fresh instance once the bound is passed: what it learned is gone', () => {
    const nlp = boundedWink(['sbd'], 2 * CITED.length + TEACHES.length)
    const fresh = sentences(nlp, CITED)
    expect(fresh).toHaveLength(2)
    sentences(nlp, TEACHES)
    // The instance read TEACHES' words: CITED now splits otherwise (why the bound matters).
    expect(sentences(nlp, CITED)).not.toEqual(fresh)
    expect(nlp.generation).toBe(1)
    // The next read would pass the bound: it is made by a fresh instance, as the first was.
    expect(sentences(nlp, CITED)).toEqual(fresh)
    expect(nlp.generation).toBe(2)
  })

  it('keeps one instance within the bound', () => {
    const nlp = boundedWink(['sbd'], 1_000)
    for (let i = 0; i < 10; i += 1) sentences(nlp, 'The parties agree. Each shall pay.')
    expect(nlp.generation).toBe(1)
  })

  it('renews as often as it must: thirty instances build as the first did', () => {
    // The model's metaCER loader grew its string fourfold an instance: the 11th threw before.
    const nlp = boundedWink(['sbd'], 1)
    for (let i = 0; i < 30; i += 1)
      expect(sentences(nlp, 'The parties agree. Each shall pay.')).toHaveLength(2)
    expect(nlp.generation).toBe(30)
  })
})
