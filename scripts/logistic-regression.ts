/**
 * The project's one logistic-regression module (decision 0132), two paths over the same model
 * σ(w·x + b):
 * - dense, full batch (`fitLogistic`): a few dozen features, fitted by gradient descent on
 *   standardised columns, then folded back so the weights apply to the raw features; used by the
 *   answer models (decision 0130, scripts/train-answer-models.ts);
 * - sparse, SGD (`fitSparseLogistic`): tens of thousands of binary features and several outputs
 *   at once (one per clause category), seeded shuffles, negative sampling and pruning to the
 *   strongest weights; used by the clause model (scripts/clause-trainer.ts).
 * ml-logistic-regression (npm 2.0.0) was weighed and does not fit either: it takes a dense
 * ml-matrix, has no regularisation, no sample weights and no bias term, and one-vs-all over
 * exclusive classes where a sentence can belong to several categories; the clause data as a dense
 * matrix would not fit in memory (figure in decision 0132). Hand-written here, deterministic (no
 * random start; shuffles seeded) and with nothing to keep up to date.
 */
export interface FitOptions {
  /** L2 penalty on the standardised weights (not on the bias), per example. */
  l2: number
  iterations: number
  learningRate: number
  /** Weight of each example (e.g. to balance classes); 1 each when absent. */
  sampleWeights?: readonly number[]
}

export const DEFAULT_FIT: FitOptions = { l2: 1e-3, iterations: 400, learningRate: 0.5 }

/**
 * Weights w for rows x (the first column must be the constant 1, the bias) and labels y ∈ {0, 1},
 * so that σ(w·x) estimates P(y = 1 | x).
 */
export function fitLogistic(
  rows: readonly (readonly number[])[],
  labels: readonly number[],
  options: FitOptions = DEFAULT_FIT,
): number[] {
  if (rows.length !== labels.length) throw new Error('rows and labels differ in length')
  const d = rows[0]?.length ?? 0
  const n = rows.length
  const sw = options.sampleWeights ?? rows.map(() => 1)
  const total = sw.reduce((a, b) => a + b, 0) || 1
  const mean = new Array<number>(d).fill(0)
  const std = new Array<number>(d).fill(1)
  for (let j = 1; j < d; j += 1) {
    let m = 0
    for (const row of rows) m += row[j]!
    m /= Math.max(n, 1)
    let v = 0
    for (const row of rows) v += (row[j]! - m) ** 2
    mean[j] = m
    std[j] = Math.sqrt(v / Math.max(n, 1)) || 1
  }
  const z = rows.map((row) => row.map((x, j) => (j === 0 ? 1 : (x - mean[j]!) / std[j]!)))
  const w = new Array<number>(d).fill(0)
  const grad = new Array<number>(d)
  for (let it = 0; it < options.iterations; it += 1) {
    grad.fill(0)
    for (let i = 0; i < n; i += 1) {
      const row = z[i]!
      let s = 0
      for (let j = 0; j < d; j += 1) s += w[j]! * row[j]!
      const err = (1 / (1 + Math.exp(-s)) - labels[i]!) * sw[i]!
      for (let j = 0; j < d; j += 1) grad[j]! += err * row[j]!
    }
    for (let j = 0; j < d; j += 1) {
      const penalty = j === 0 ? 0 : options.l2 * w[j]!
      w[j]! -= options.learningRate * (grad[j]! / total + penalty)
    }
  }
  // Back to raw features: w·z = w0 + Σ wj (xj − mj) / sj.
  const raw = w.map((wj, j) => (j === 0 ? wj : wj / std[j]!))
  raw[0] = w[0]! - w.reduce((acc, wj, j) => (j === 0 ? acc : acc + (wj * mean[j]!) / std[j]!), 0)
  return raw
}

/** σ(w·x). */
export function predictLogistic(weights: readonly number[], row: readonly number[]): number {
  let s = 0
  for (let j = 0; j < row.length; j += 1) s += (weights[j] ?? 0) * row[j]!
  return 1 / (1 + Math.exp(-s))
}

/** One row of the sparse path: active feature ids (0..vocabSize-1), all with value `scale`. */
export interface SparseExample {
  x: Int32Array
  /** The value of every active feature (e.g. 1/sqrt(count), an L2-normalised binary vector). */
  scale: number
  /** labels[o] ∈ {0, 1} for each output o. */
  labels: Uint8Array
  /** Whether any label is 1: such rows are always visited (see negativeSampling). */
  positive: boolean
}

/** Options of fitSparseLogistic. */
export interface SparseFitOptions {
  seed: number
  /** Epochs over every weight, then `settleEpochs` over the weights kept after pruning. */
  epochs: number
  settleEpochs: number
  /** Learning rate of the first epoch; epoch e uses learningRate / (1 + e). */
  learningRate: number
  /** L2 penalty per update on the weights touched (not on the biases). */
  l2: number
  /**
   * Share of all-negative rows visited per epoch (a fresh draw each epoch), their loss scaled by
   * its inverse: the same objective in expectation at a fraction of the cost.
   */
  negativeSampling: number
  /** Loss weight of a positive label, per output. */
  positiveWeights: ArrayLike<number>
  /** After `epochs`, each output keeps only this many weights (largest magnitude). */
  maxFeaturesPerOutput: number
  /** Starting bias of every output. */
  initialBias: number
}

/**
 * Fits one logistic regression per output over sparse rows by SGD, seeded (the same inputs give
 * the same weights). `initialWeights` (feature-major, weights[f * outputs + o]) sets priors, and is
 * not modified. Returns the weights in the same layout (Float32Array, zeros for pruned features)
 * and one bias per output. Throws when a row's labels do not have `outputs` entries.
 */
export function fitSparseLogistic(
  examples: readonly SparseExample[],
  vocabSize: number,
  outputs: number,
  options: SparseFitOptions,
  initialWeights?: Float32Array,
): { weights: Float32Array; biases: Float64Array } {
  for (const { labels } of examples) {
    if (labels.length !== outputs) throw new Error('a row has labels for another number of outputs')
  }
  const weights = new Float32Array(outputs * vocabSize)
  if (initialWeights) weights.set(initialWeights.subarray(0, weights.length))
  const biases = new Float64Array(outputs).fill(options.initialBias)
  const random = seededRandom(options.seed)
  const z = new Float64Array(outputs)
  const sgd = (epochs: number, mask: Uint8Array | null): void => {
    for (let epoch = 0; epoch < epochs; epoch += 1) {
      const rate = options.learningRate / (1 + epoch)
      const sample = examples.filter((e) => e.positive || random() < options.negativeSampling)
      for (const { x, scale, labels, positive } of shuffleInPlace(sample, random)) {
        const lossWeight = positive ? 1 : 1 / options.negativeSampling
        // Feature-major layout (weights[f * C + c]): one pass over the features scores every output.
        z.set(biases)
        for (const f of x) {
          const base = f * outputs
          for (let c = 0; c < outputs; c += 1) z[c] = (z[c] ?? 0) + (weights[base + c] ?? 0) * scale
        }
        for (let c = 0; c < outputs; c += 1) {
          const y = labels[c] ?? 0
          const g =
            (1 / (1 + Math.exp(-(z[c] ?? 0))) - y) *
            (y === 1 ? (options.positiveWeights[c] ?? 1) : lossWeight)
          z[c] = Math.abs(g) < 1e-4 ? 0 : g
          biases[c] = (biases[c] ?? 0) - rate * (z[c] ?? 0)
        }
        for (const f of x) {
          const base = f * outputs
          for (let c = 0; c < outputs; c += 1) {
            const g = z[c] ?? 0
            const at = base + c
            if (g === 0 || (mask && mask[at] === 0)) continue
            const w = weights[at] ?? 0
            weights[at] = w - rate * (g * scale + options.l2 * w)
          }
        }
      }
    }
  }
  sgd(options.epochs, null)
  // Keep the strongest weights per output, then let them re-settle without the rest.
  const mask = new Uint8Array(weights.length)
  for (let c = 0; c < outputs; c += 1) {
    const column = Array.from({ length: vocabSize }, (_, f) => f * outputs + c)
    column.sort((a, b) => Math.abs(weights[b] ?? 0) - Math.abs(weights[a] ?? 0))
    for (const at of column.slice(0, options.maxFeaturesPerOutput)) mask[at] = 1
  }
  weights.forEach((_, at) => {
    if (mask[at] === 0) weights[at] = 0
  })
  sgd(options.settleEpochs, mask)
  return { weights, biases }
}

/** Mulberry32, a small seeded PRNG (Tommy Ettinger, public domain): uniform in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Fisher–Yates shuffle of `items` in place with `random`; returns `items`. */
export function shuffleInPlace<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1))
    const tmp = items[i] as T
    items[i] = items[j] as T
    items[j] = tmp
  }
  return items
}
