/**
 * The shape of the search cache scripts/nli-candidates.ts writes and
 * scripts/train-answer-models.ts reads (decision 0130): per ContractNLI pair, the question, the
 * gold label and evidence offsets, and the passages search found (offsets into the NDA's text).
 */

/** A passage found by search: offsets into its NDA's text, the fused score and the text. */
export interface CachedHit {
  start: number
  end: number
  score: number
  content: string
}

/** One NDA × hypothesis pair. */
export interface CachedPair {
  nda: number
  key: string
  question: string
  /** 'Entailment' | 'Contradiction' | 'NotMentioned'. */
  choice: string
  /** Gold evidence spans as [start, end) offsets into the NDA's text. */
  evidence: Array<[number, number]>
  /** The hits of a k = PASSAGES_PER_ANSWER search (what the assistant reads). */
  shown: CachedHit[]
  /** The hits of a larger search, the candidates a reranker chooses from. */
  pool: CachedHit[]
}

export interface NliCandidates {
  embedder: string
  pairs: CachedPair[]
}
