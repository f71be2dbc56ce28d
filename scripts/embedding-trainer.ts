/**
 * Word vectors from co-occurrence counts: positive pointwise mutual information with context
 * distribution smoothing (alpha 0.75) and a truncated SVD, the count-based method of Levy,
 * Goldberg & Dagan, "Improving Distributional Similarity with Lessons Learned from Word
 * Embeddings" (TACL 2015): their experiments put PPMI+SVD on par with word2vec on similarity
 * tasks at this corpus size. The SVD is the randomized range finder with power iterations of
 * Halko, Martinsson & Tropp (SIAM Review 2011). Deterministic for a given seed.
 */
import { wordTokens } from '../server/ai/embedder/local/tokens'

export interface TrainOptions {
  /** Largest vocabulary kept (most frequent words first). */
  maxVocab: number
  /** Words seen fewer times are dropped. */
  minCount: number
  /** Context words on each side. */
  window: number
  /** Dimensions of the word vectors. */
  dim: number
  /** Power iterations of the randomized SVD. */
  powerIterations: number
  seed: number
}

export const DEFAULT_TRAIN_OPTIONS: TrainOptions = {
  maxVocab: 20_000,
  minCount: 5,
  window: 5,
  dim: 128,
  powerIterations: 3,
  seed: 7,
}

export interface WordVectors {
  words: string[]
  /** Corpus frequency of each word (count / total tokens). */
  frequencies: number[]
  dim: number
  /** Row-major, words.length × dim, each row L2-normalised. */
  vectors: Float32Array
}

/** Trains word vectors on `texts` (see the module comment). */
export function trainWordVectors(texts: readonly string[], options: TrainOptions): WordVectors {
  const docs = texts.map(wordTokens)
  const counts = new Map<string, number>()
  for (const doc of docs) for (const w of doc) counts.set(w, (counts.get(w) ?? 0) + 1)
  const totalTokens = docs.reduce((n, d) => n + d.length, 0)
  const words = [...counts.entries()]
    .filter(([, c]) => c >= options.minCount)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, options.maxVocab)
    .map(([w]) => w)
  const index = new Map(words.map((w, i) => [w, i]))
  const n = words.length
  const matrix = ppmi(cooccurrences(docs, index, n, options.window), n)
  const { u, s } = randomizedSvd(matrix, n, options.dim, options.powerIterations, options.seed)
  const vectors = new Float32Array(n * options.dim)
  for (let i = 0; i < n; i += 1) {
    let norm = 0
    for (let k = 0; k < options.dim; k += 1) {
      // Eigenvalue weighting p = 0.5 (Levy et al. 2015): U·sqrt(S).
      const v = (u[i * options.dim + k] ?? 0) * Math.sqrt(s[k] ?? 0)
      vectors[i * options.dim + k] = v
      norm += v * v
    }
    const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0
    for (let k = 0; k < options.dim; k += 1) vectors[i * options.dim + k]! *= scale
  }
  return {
    words,
    frequencies: words.map((w) => (counts.get(w) ?? 0) / totalTokens),
    dim: options.dim,
    vectors,
  }
}

/** A symmetric sparse matrix in compressed rows. */
interface Csr {
  rowStart: Uint32Array
  cols: Uint32Array
  values: Float32Array
}

/** Symmetric co-occurrence counts within `window`, as pairs sorted and merged (key i·n + j). */
function cooccurrences(docs: string[][], index: Map<string, number>, n: number, window: number) {
  let events = new Uint32Array(1 << 20)
  let used = 0
  const push = (key: number) => {
    if (used === events.length) {
      const bigger = new Uint32Array(events.length * 2)
      bigger.set(events)
      events = bigger
    }
    events[used++] = key
  }
  for (const doc of docs) {
    const ids = doc.map((w) => index.get(w) ?? -1)
    for (let a = 0; a < ids.length; a += 1) {
      const i = ids[a] ?? -1
      if (i < 0) continue
      for (let b = a + 1; b <= a + window && b < ids.length; b += 1) {
        const j = ids[b] ?? -1
        if (j < 0) continue
        push(i * n + j)
        push(j * n + i)
      }
    }
  }
  const sorted = events.subarray(0, used).sort()
  const rowStart = new Uint32Array(n + 1)
  const cols: number[] = []
  const values: number[] = []
  let k = 0
  while (k < sorted.length) {
    const key = sorted[k] ?? 0
    let count = 0
    while (k < sorted.length && sorted[k] === key) {
      count += 1
      k += 1
    }
    const row = Math.floor(key / n)
    rowStart[row + 1]! += 1
    cols.push(key % n)
    values.push(count)
  }
  for (let r = 0; r < n; r += 1) rowStart[r + 1]! += rowStart[r] ?? 0
  return { rowStart, cols: Uint32Array.from(cols), values: Float32Array.from(values) }
}

/** PPMI with context distribution smoothing: max(0, log(P(i,j) / (P(i) · P_0.75(j)))). */
function ppmi(counts: Csr, n: number): Csr {
  const rowSum = new Float64Array(n)
  let total = 0
  for (let r = 0; r < n; r += 1)
    for (let e = counts.rowStart[r] ?? 0; e < (counts.rowStart[r + 1] ?? 0); e += 1) {
      rowSum[r]! += counts.values[e] ?? 0
      total += counts.values[e] ?? 0
    }
  const smoothed = rowSum.map((c) => c ** 0.75)
  const smoothedTotal = smoothed.reduce((a, b) => a + b, 0)
  const values = new Float32Array(counts.values.length)
  for (let r = 0; r < n; r += 1)
    for (let e = counts.rowStart[r] ?? 0; e < (counts.rowStart[r + 1] ?? 0); e += 1) {
      const c = counts.cols[e] ?? 0
      const pmi = Math.log(
        (counts.values[e] ?? 0) /
          total /
          (((rowSum[r] ?? 0) / total) * ((smoothed[c] ?? 0) / smoothedTotal)),
      )
      values[e] = pmi > 0 ? pmi : 0
    }
  return { ...counts, values }
}

/** y (n × l) = M x for symmetric sparse M and row-major dense x (n × l). */
function multiply(m: Csr, x: Float64Array, n: number, l: number): Float64Array {
  const y = new Float64Array(n * l)
  for (let r = 0; r < n; r += 1)
    for (let e = m.rowStart[r] ?? 0; e < (m.rowStart[r + 1] ?? 0); e += 1) {
      const v = m.values[e] ?? 0
      if (v === 0) continue
      const c = (m.cols[e] ?? 0) * l
      for (let k = 0; k < l; k += 1) y[r * l + k]! += v * (x[c + k] ?? 0)
    }
  return y
}

/** Orthonormalises the columns of row-major `a` (n × l) in place (modified Gram–Schmidt). */
function orthonormalize(a: Float64Array, n: number, l: number): void {
  for (let k = 0; k < l; k += 1) {
    for (let j = 0; j < k; j += 1) {
      let dot = 0
      for (let i = 0; i < n; i += 1) dot += (a[i * l + k] ?? 0) * (a[i * l + j] ?? 0)
      for (let i = 0; i < n; i += 1) a[i * l + k]! -= dot * (a[i * l + j] ?? 0)
    }
    let norm = 0
    for (let i = 0; i < n; i += 1) norm += (a[i * l + k] ?? 0) ** 2
    const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0
    for (let i = 0; i < n; i += 1) a[i * l + k]! *= scale
  }
}

/** Mulberry32, a small seeded PRNG, and Box–Muller normals from it. */
function normals(count: number, seed: number): Float64Array {
  let state = seed >>> 0
  const uniform = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const out = new Float64Array(count)
  for (let i = 0; i < count; i += 1)
    out[i] = Math.sqrt(-2 * Math.log(uniform() + 1e-12)) * Math.cos(2 * Math.PI * uniform())
  return out
}

/** Eigen-decomposition of a symmetric l × l matrix by cyclic Jacobi rotations. */
function symmetricEigen(a: Float64Array, l: number): { values: number[]; vectors: Float64Array } {
  const v = new Float64Array(l * l)
  for (let i = 0; i < l; i += 1) v[i * l + i] = 1
  for (let sweep = 0; sweep < 60; sweep += 1) {
    let off = 0
    for (let p = 0; p < l; p += 1)
      for (let q = p + 1; q < l; q += 1) off += (a[p * l + q] ?? 0) ** 2
    if (off < 1e-18) break
    for (let p = 0; p < l; p += 1)
      for (let q = p + 1; q < l; q += 1) {
        const apq = a[p * l + q] ?? 0
        if (Math.abs(apq) < 1e-15) continue
        const theta = ((a[q * l + q] ?? 0) - (a[p * l + p] ?? 0)) / (2 * apq)
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1))
        const c = 1 / Math.sqrt(t * t + 1)
        const s = t * c
        for (let k = 0; k < l; k += 1) {
          const akp = a[k * l + p] ?? 0
          const akq = a[k * l + q] ?? 0
          a[k * l + p] = c * akp - s * akq
          a[k * l + q] = s * akp + c * akq
        }
        for (let k = 0; k < l; k += 1) {
          const apk = a[p * l + k] ?? 0
          const aqk = a[q * l + k] ?? 0
          a[p * l + k] = c * apk - s * aqk
          a[q * l + k] = s * apk + c * aqk
        }
        for (let k = 0; k < l; k += 1) {
          const vkp = v[k * l + p] ?? 0
          const vkq = v[k * l + q] ?? 0
          v[k * l + p] = c * vkp - s * vkq
          v[k * l + q] = s * vkp + c * vkq
        }
      }
  }
  return { values: Array.from({ length: l }, (_, i) => a[i * l + i] ?? 0), vectors: v }
}

/**
 * The top `dim` left singular vectors and values of symmetric sparse `m` (n × n): Q = orth(M^q Ω),
 * B = Qᵀ M, then the eigenvectors of B Bᵀ (Halko et al. 2011, algorithms 4.4 and 5.1).
 */
function randomizedSvd(m: Csr, n: number, dim: number, iterations: number, seed: number) {
  const l = dim + 16
  let q = multiply(m, normals(n * l, seed), n, l)
  orthonormalize(q, n, l)
  for (let it = 0; it < iterations; it += 1) {
    q = multiply(m, q, n, l)
    orthonormalize(q, n, l)
  }
  // M symmetric: Bᵀ = M Q (n × l); B Bᵀ = (M Q)ᵀ (M Q).
  const mq = multiply(m, q, n, l)
  const gram = new Float64Array(l * l)
  for (let i = 0; i < n; i += 1)
    for (let a = 0; a < l; a += 1) {
      const x = mq[i * l + a] ?? 0
      if (x === 0) continue
      for (let b = a; b < l; b += 1) gram[a * l + b]! += x * (mq[i * l + b] ?? 0)
    }
  for (let a = 0; a < l; a += 1)
    for (let b = 0; b < a; b += 1) gram[a * l + b] = gram[b * l + a] ?? 0
  const eigen = symmetricEigen(gram, l)
  const order = eigen.values.map((value, i) => ({ value, i })).sort((x, y) => y.value - x.value)
  const u = new Float64Array(n * dim)
  const s = new Float64Array(dim)
  for (let k = 0; k < dim; k += 1) {
    const { value, i: col } = order[k] ?? { value: 0, i: 0 }
    s[k] = Math.sqrt(Math.max(value, 0))
    for (let r = 0; r < n; r += 1) {
      let sum = 0
      for (let a = 0; a < l; a += 1) sum += (q[r * l + a] ?? 0) * (eigen.vectors[a * l + col] ?? 0)
      u[r * dim + k] = sum
    }
  }
  return { u, s }
}
