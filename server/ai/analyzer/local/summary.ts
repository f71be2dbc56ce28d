/**
 * Extractive summary by graph ranking: LexRank with continuous edge weights (Erkan & Radev 2004,
 * "LexRank: Graph-based Lexical Centrality as Salience in Text Summarization"), i.e. PageRank
 * over a graph whose nodes are sentences and whose edges are the TF-IDF cosine similarities.
 */
import type { QuotedSpan, Summary } from '../types'

/**
 * Only this many candidate sentences enter the graph (the first ones, where a contract states its
 * parties, purpose and main obligations); the dense similarity matrix is quadratic in it, and 300
 * keeps a 300k-character contract under ~20 ms.
 */
const MAX_CANDIDATES = 300

/** A candidate has at least this many words: headings and list labels carry no summary content. */
const MIN_WORDS = 8

/** Longer passages are tables or run-on schedules, not summary sentences. */
const MAX_CHARS = 800

/** PageRank damping factor and stopping rule (Brin & Page 1998; LexRank uses the same iteration). */
const DAMPING = 0.85
const MAX_ITERATIONS = 50
const TOLERANCE = 1e-6

/**
 * A chosen sentence may not be more similar than this (TF-IDF cosine) to one chosen before it:
 * the redundancy check LexRank's authors pair with centrality (Erkan & Radev 2004, §4, after
 * Carbonell & Goldstein's MMR 1998), so repeated boilerplate cannot fill the summary.
 */
const MAX_REDUNDANCY = 0.5

/** Function words and contract boilerplate that say nothing about what a sentence is about. */
const STOPWORDS = new Set(
  (
    'a an and any are as at be been by can for from has have hereby herein hereof hereto hereunder ' +
    'if in into is it its may no not of on or other shall such that the their then there these ' +
    'this those to under upon was were which will with without within would each all agreement party parties'
  ).split(' '),
)

/**
 * Picks the most central sentences of a document as its summary.
 *
 * `sentences` are document-ordered spans into `content` (segmentSentences). Returns
 * `maxSentences` sentences when given, else 3–7 (roughly log2 of the candidate count; fewer when
 * the document has fewer candidates), in document
 * order, with `text` the sentences joined by a space. Empty input gives an empty summary. Cost is
 * O(n² · words) for n ≤ MAX_CANDIDATES candidates; never throws.
 */
export function summarize(
  content: string,
  sentences: readonly QuotedSpan[],
  maxSentences?: number,
): Summary {
  const seen = new Set<string>()
  const candidates = sentences
    .filter((s) => s.end - s.start <= MAX_CHARS && isProse(s.text))
    // Exact repeats (e.g. a redaction notice after every schedule) would reinforce each other in
    // the graph; keep only the first occurrence.
    .filter((s) => {
      const key = s.text.toLowerCase().replace(/\s+/g, ' ')
      if (seen.has(key)) return false
      seen.add(key)
      return true
    })
    .slice(0, MAX_CANDIDATES)
  if (candidates.length === 0) return { text: '', sentences: [] }
  const vectors = tfIdfVectors(candidates.map((s) => tokenize(s.text)))
  const scores = lexRank(vectors)
  const count = Math.min(
    candidates.length,
    maxSentences ?? Math.max(3, Math.min(7, Math.round(Math.log2(candidates.length + 1)))),
  )
  const picked: number[] = []
  const ranked = candidates
    .map((_, i) => i)
    .sort((a, b) => (scores[b] ?? 0) - (scores[a] ?? 0) || a - b)
  for (const i of ranked) {
    if (picked.length >= count) break
    const vector = vectors[i] as SparseVector
    if (picked.every((j) => cosine(vector, vectors[j] as SparseVector) <= MAX_REDUNDANCY))
      picked.push(i)
  }
  const chosen = picked
    .sort((a, b) => a - b)
    .map((i) => candidates[i] as QuotedSpan)
    .map((sentence) => ({
      text: content.slice(sentence.start, sentence.end),
      start: sentence.start,
      end: sentence.end,
    }))
  return { text: chosen.map((s) => s.text.replace(/\s+/g, ' ')).join(' '), sentences: chosen }
}

/** A sentence of running text: enough words, and not an all-capitals heading or signature line. */
function isProse(text: string): boolean {
  const words = text.match(/\p{L}+/gu) ?? []
  if (words.length < MIN_WORDS) return false
  const lower = words.filter((w) => /\p{Ll}/u.test(w)).length
  return lower / words.length >= 0.5
}

function tokenize(text: string): string[] {
  return (text.toLowerCase().match(/\p{L}[\p{L}\p{N}'-]*/gu) ?? []).filter(
    (w) => w.length > 2 && !STOPWORDS.has(w),
  )
}

/** A sparse vector as parallel arrays, term ids ascending, so that a dot product is a merge. */
interface SparseVector {
  ids: Int32Array
  weights: Float64Array
}

/** L2-normalised TF-IDF vectors, idf = ln(N / df) over the candidate sentences. */
function tfIdfVectors(docs: readonly string[][]): SparseVector[] {
  const termIds = new Map<string, number>()
  const counts = docs.map((words) => {
    const tf = new Map<number, number>()
    for (const word of words) {
      let id = termIds.get(word)
      if (id === undefined) termIds.set(word, (id = termIds.size))
      tf.set(id, (tf.get(id) ?? 0) + 1)
    }
    return tf
  })
  const df = new Float64Array(termIds.size)
  for (const tf of counts) for (const id of tf.keys()) df[id] = (df[id] ?? 0) + 1
  return counts.map((tf) => {
    const ids = Int32Array.from([...tf.keys()].sort((a, b) => a - b))
    const weights = Float64Array.from(
      ids,
      (id) => (tf.get(id) ?? 0) * Math.log(docs.length / (df[id] ?? 1)),
    )
    const norm = Math.hypot(...weights)
    if (norm > 0) for (let k = 0; k < weights.length; k += 1) weights[k] = (weights[k] ?? 0) / norm
    return { ids, weights }
  })
}

function cosine(a: SparseVector, b: SparseVector): number {
  let dot = 0
  for (let i = 0, j = 0; i < a.ids.length && j < b.ids.length;) {
    const x = a.ids[i] ?? 0
    const y = b.ids[j] ?? 0
    if (x === y) dot += (a.weights[i++] ?? 0) * (b.weights[j++] ?? 0)
    else if (x < y) i += 1
    else j += 1
  }
  return dot
}

/** Continuous LexRank: stationary distribution of the row-normalised similarity graph. */
function lexRank(vectors: readonly SparseVector[]): Float64Array {
  const n = vectors.length
  const weights = new Float64Array(n * n)
  const rowSums = new Float64Array(n)
  for (let i = 0; i < n; i += 1) {
    for (let j = i + 1; j < n; j += 1) {
      const sim = cosine(vectors[i] as SparseVector, vectors[j] as SparseVector)
      weights[i * n + j] = sim
      weights[j * n + i] = sim
      rowSums[i] = (rowSums[i] ?? 0) + sim
      rowSums[j] = (rowSums[j] ?? 0) + sim
    }
  }
  let scores = new Float64Array(n).fill(1 / n)
  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration += 1) {
    const next = new Float64Array(n).fill((1 - DAMPING) / n)
    for (let i = 0; i < n; i += 1) {
      const sum = rowSums[i] ?? 0
      const share = scores[i] ?? 0
      // A sentence similar to nothing spreads its score evenly, as PageRank does for dangling nodes.
      if (sum === 0) {
        for (let j = 0; j < n; j += 1) next[j] = (next[j] ?? 0) + (DAMPING * share) / n
        continue
      }
      for (let j = 0; j < n; j += 1)
        next[j] = (next[j] ?? 0) + (DAMPING * share * (weights[i * n + j] ?? 0)) / sum
    }
    let delta = 0
    for (let i = 0; i < n; i += 1) delta += Math.abs((next[i] ?? 0) - (scores[i] ?? 0))
    scores = next
    if (delta < TOLERANCE) break
  }
  return scores
}
