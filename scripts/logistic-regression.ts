/**
 * A small L2-regularised logistic regression for the answer models (decision 0130): dense
 * features (a few dozen), fitted by full-batch gradient descent on standardised columns, then
 * folded back so the weights apply to the raw features (the model file holds only those). With
 * so few features a hand-written fit is shorter than adopting a library, deterministic (no random
 * start, no shuffle) and has nothing to keep up to date; scripts/clause-trainer.ts does the same
 * for the clause model. Throws when rows and labels differ in length.
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
