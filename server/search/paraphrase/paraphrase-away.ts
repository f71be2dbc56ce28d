/**
 * Rewrites a query so that it shares no content word with a passage: the test of retrieval by
 * meaning that `npm run eval:retrieval -- --paraphrase` runs (issue 25).
 */
import { contentStems, wordTokensOf } from './content-words'
import type { WordNet } from './wordnet-synonyms'

export interface Paraphrase {
  /** The rewritten query. */
  text: string
  /** Content words replaced by a synonym, and dropped for want of one. */
  replaced: number
  dropped: number
}

/**
 * Each content word of `query` whose stem occurs among the content words of `passage` is
 * replaced by its first WordNet synonym (most frequent sense first) having at least one content
 * word and none whose stem occurs in the passage; a word with no such synonym is dropped. Words
 * the passage lacks, and stop words, stay as written. Pure; never throws.
 */
export function paraphraseAway(query: string, passage: string, wordnet: WordNet): Paraphrase {
  const avoid = contentStems(passage)
  let text = ''
  let at = 0
  let replaced = 0
  let dropped = 0
  for (const token of wordTokensOf(query)) {
    if (token.stem === null || !avoid.has(token.stem)) continue
    const synonym = wordnet.synonyms(token.word).find((candidate) => {
      const stems = [...contentStems(candidate)]
      return stems.length > 0 && stems.every((s) => !avoid.has(s))
    })
    text += query.slice(at, token.start) + (synonym ?? '')
    at = token.end
    if (synonym) replaced += 1
    else dropped += 1
  }
  // A dropped word leaves its spaces behind.
  text = (text + query.slice(at))
    .replace(/\s{2,}/g, ' ')
    .replace(/\s+([.,;:!?])/g, '$1')
    .trim()
  return { text, replaced, dropped }
}
