/**
 * Query expansion for the text half of hybrid search (decision 76): a query's content words
 * bring their WordNet synonyms along, so a passage that says "destruction" is found by "erasure"
 * and one that says "receive" by "get". The synonyms are ranked below the query's own words
 * (hybrid-search.ts weighs them SYNONYM_WEIGHT), so a passage using the query's exact words still
 * comes first.
 */
import { contentStems, wordTokensOf } from './paraphrase/content-words'
import type { WordNet } from './paraphrase/wordnet-synonyms'
import { legalTerms } from './legal-lexicon'

/**
 * The legal lexicon's terms for `query` (legal-lexicon.ts, decision 0117), then the WordNet
 * synonyms (all senses, most frequent first) of its content words, joined by spaces, leaving out
 * any term whose content words all stem like a word of the query (it would add nothing). '' for a
 * query without content words or synonyms. `lexicon` is the legal lexicon unless a test passes
 * another. Pure; never throws.
 */
export function expandQuery(
  query: string,
  wordnet: WordNet,
  lexicon: (query: string) => string[] = legalTerms,
): string {
  const own = contentStems(query)
  const words = new Set(
    wordTokensOf(query).flatMap((token) => (token.stem === null ? [] : [token.word])),
  )
  const out = new Set<string>()
  for (const term of lexicon(query))
    if ([...contentStems(term)].some((stem) => !own.has(stem))) out.add(term)
  for (const word of words)
    for (const synonym of wordnet.synonyms(word))
      if ([...contentStems(synonym)].some((stem) => !own.has(stem))) out.add(synonym)
  return [...out].join(' ')
}
