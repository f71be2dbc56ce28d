import { describe, expect, it } from 'vitest'
import { contentStems } from './content-words'
import { paraphraseAway } from './paraphrase-away'
import type { WordNet } from './wordnet-synonyms'

const SYNONYMS: Record<string, string[]> = {
  destroy: ['destruct', 'ruin'],
  copies: ['copy', 'written matter', 'transcript'],
  confidential: ['secret'],
  information: ['info', 'data'],
  party: ['company', 'political party'],
  terminate: ['can', 'end'],
}
const wordnet: WordNet = {
  lemmas: (word) => (SYNONYMS[word] ? [word] : []),
  synonyms: (word) => SYNONYMS[word] ?? [],
}

const PASSAGE =
  'The Receiving Party shall destroy all copies of the Confidential Information and any written notes.'

describe('paraphraseAway', () => {
  it('replaces each shared content word by its first synonym the passage lacks', () => {
    const out = paraphraseAway('Destroy the copies of confidential information.', PASSAGE, wordnet)
    // "copy" shares the stem of "copies"; "written matter" shares "written": both are passed over.
    expect(out).toEqual({
      text: 'destruct the transcript of secret info.',
      replaced: 4,
      dropped: 0,
    })
  })

  it('drops a shared word without a usable synonym, and keeps words the passage lacks', () => {
    const out = paraphraseAway(
      'The receiving party shall promptly destroy notes.',
      PASSAGE,
      wordnet,
    )
    expect(out.text).toBe('The company promptly destruct.')
    expect(out).toMatchObject({ replaced: 2, dropped: 3 })
  })

  it('passes over a synonym made only of stop words ("can" for "terminate")', () => {
    expect(paraphraseAway('Either party may terminate.', 'terminate it', wordnet).text).toBe(
      'Either party may end.',
    )
  })

  it('leaves a query that shares nothing with the passage unchanged', () => {
    const query = 'Governing law is New York.'
    expect(paraphraseAway(query, PASSAGE, wordnet)).toEqual({
      text: query,
      replaced: 0,
      dropped: 0,
    })
  })

  it('yields queries sharing no content stem with the passage', () => {
    for (const query of [
      'Receiving Party shall destroy copies of Confidential Information.',
      "the Party's written information",
    ]) {
      const stems = contentStems(paraphraseAway(query, PASSAGE, wordnet).text)
      const shared = [...stems].filter((s) => contentStems(PASSAGE).has(s))
      expect(shared).toEqual([])
    }
  })
})

describe('contentStems', () => {
  it('stems content words like PostgreSQL’s English configuration and skips its stop words', () => {
    expect([...contentStems("The Party's copies were destroyed")]).toEqual([
      'parti',
      'copi',
      'destroy',
    ])
  })
})
