/**
 * The local embedder's vectors (decision 0016), 384 dimensions in three L2-normalised blocks,
 * concatenated with weights and normalised again, so a cosine is the weighted sum of three
 * cosines:
 * - 128: the SIF average of the text's word vectors (PPMI + SVD on CUAD, word-vectors.bin):
 *   weight a / (a + p(w)), a = 1e-3 (Arora, Liang & Ma, "A Simple but Tough-to-Beat Baseline
 *   for Sentence Embeddings", ICLR 2017); it carries similarity between different words;
 * - 128: hashed words with the same weights (feature hashing with a sign bit, Weinberger et al.
 *   2009); exact words, including words outside the vocabulary;
 * - 128: hashed character trigrams of each word with boundary marks (as fastText's subwords,
 *   Bojanowski et al. 2017); word forms ("terminate", "termination").
 */
import { wordTokens } from './tokens'
import type { WordVectorTable } from './word-vector-file'

export const BLOCK = 128
export const LOCAL_DIM = 3 * BLOCK
/** Block weights (semantic, words, trigrams), squared they weigh the three cosines. */
const WEIGHTS = [1, 0.25, 0.5] as const
const SIF_A = 1e-3
/** The weight of a word outside the vocabulary (rarer than any word in it). */
const OOV_WEIGHT = 1

/** FNV-1a 32-bit hash. */
function hash(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

function addHashed(block: Float64Array, feature: string, weight: number): void {
  const h = hash(feature)
  block[h % BLOCK]! += (h & 0x80000000 ? -1 : 1) * weight
}

function normalise(block: Float64Array): Float64Array {
  let norm = 0
  for (const v of block) norm += v * v
  if (norm > 0) for (let i = 0; i < block.length; i += 1) block[i]! /= Math.sqrt(norm)
  return block
}

/** The 384-dimension embedding of `text` (all zeros for a text without words). */
export function embedLocal(table: WordVectorTable, text: string): number[] {
  const semantic = new Float64Array(BLOCK)
  const words = new Float64Array(BLOCK)
  const trigrams = new Float64Array(BLOCK)
  for (const word of wordTokens(text)) {
    const row = table.index.get(word)
    const weight = row === undefined ? OOV_WEIGHT : SIF_A / (SIF_A + (table.frequencies[row] ?? 0))
    if (row !== undefined)
      for (let k = 0; k < BLOCK; k += 1)
        semantic[k]! += weight * (table.vectors[row * table.dim + k] ?? 0)
    addHashed(words, word, weight)
    const marked = `<${word}>`
    for (let i = 0; i + 3 <= marked.length; i += 1)
      addHashed(trigrams, marked.slice(i, i + 3), weight)
  }
  const out = new Array<number>(LOCAL_DIM)
  const blocks = [semantic, words, trigrams].map(normalise)
  let norm = 0
  blocks.forEach((block, b) => {
    for (let k = 0; k < BLOCK; k += 1) {
      const v = (block[k] ?? 0) * (WEIGHTS[b] ?? 0)
      out[b * BLOCK + k] = v
      norm += v * v
    }
  })
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0
  return out.map((v) => v * scale)
}
