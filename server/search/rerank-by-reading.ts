/**
 * Search hits reordered by how likely each answers the query (decision 0130): the learned passage
 * relevance of server/ai/chat/passage-relevance.ts (the query's weighted terms held in the passage
 * and in its best sentence, the legal lexicon's drafting words for its plain ones, whether the
 * best sentence's verb is the asked act, what kind of block the passage is, and its fused search
 * rank) and the learned term association of its words with the query's (term-association.ts,
 * decision 0150). Out of fold on ContractNLI it lifts the gold evidence found in the top five
 * passages from 0.790 (fused) to 0.855 (dev) and 0.833 to 0.870 (train-extra), from a pool of
 * RERANK_POOL fused hits (0130's model without the association: 0.782 and 0.828).
 */
import {
  RELEVANCE_FEATURES,
  RELEVANCE_MODEL,
  probability,
  relevanceFeatures,
  relevanceQuestion,
} from '../ai/chat/passage-relevance'
import { legalTerms } from './legal-lexicon'

/** Fused hits read so the reranker has candidates beyond the k shown (the trainer's pool). */
export const RERANK_POOL = 20

/**
 * The share of the query's term weight (or of its legal-lexicon terms) some hit must hold for the
 * reranker to act. The model reads words; a question that shares almost none with any passage
 * ("Where would a lawsuit be heard, and whose rules apply?", 0.16 at most, found by the vector
 * half) would be reordered by its weak features (length, kind) alone and lose what the vector
 * half found: the fused order stands (decision 0130; issue 48's reworded questions).
 */
export const MIN_WORDS_HELD = 0.25

const HELD = RELEVANCE_FEATURES.indexOf('held-share')
const LEXICON = RELEVANCE_FEATURES.indexOf('lexicon-held')

/** Whether some passage's features hold MIN_WORDS_HELD of the question's words or lexicon terms. */
function wordsSpeak(features: readonly number[][]): boolean {
  return features.some((f) => f[HELD]! >= MIN_WORDS_HELD || f[LEXICON]! >= MIN_WORDS_HELD)
}

/**
 * `hits` (best fused first) ordered by learned relevance to `query`, ties kept in their order
 * (as they are when no hit holds MIN_WORDS_HELD of the query's words);
 * each keeps its content but takes the score of the place it lands, so scores still fall down
 * the list. Pure; never throws.
 */
export function rerankByReading<T extends { content: string; score: number }>(
  query: string,
  hits: readonly T[],
): T[] {
  if (hits.length < 2) return [...hits]
  const question = relevanceQuestion(query, legalTerms)
  const features = relevanceFeatures(
    question,
    hits.map((hit, rank) => ({ content: hit.content, rank })),
    RELEVANCE_MODEL.association,
  )
  if (!wordsSpeak(features)) return [...hits]
  const relevance = features.map((f) => probability(RELEVANCE_MODEL, f))
  const order = hits.map((_, i) => i).sort((a, b) => relevance[b]! - relevance[a]! || a - b)
  return order.map((i, place) => ({ ...hits[i]!, score: hits[place]!.score }))
}
