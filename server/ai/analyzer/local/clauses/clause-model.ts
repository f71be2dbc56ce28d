/**
 * The clause classifier's stored form and its scoring: one logistic regression per category over
 * the sparse binary features of sentence-features.ts, each feature vector L2-normalised (every
 * active feature weighs 1/sqrt(count)) so that long sentences do not win on length alone.
 */

/** At most this many sentences are quoted per category, so one clause type cannot flood a result. */
export const MAX_QUOTES = 5

/**
 * A quote takes in at most this many adjacent sentences either side (quote-ranges.ts) when the
 * model does not say (models before decision 0132).
 */
export const EXTEND_SENTENCES = 2

/**
 * One category's classifier. `threshold` is the document score (see documentScore) at or above which
 * the contract has the category; `citeThreshold` the sentence probability at or above which an
 * operative sentence is quoted besides the best one (chosen out of fold, decision 0113; absent in
 * older models, which quote from threshold / (1 + secondSentenceWeight)).
 */
export interface CategoryModel {
  name: string
  bias: number
  threshold: number
  citeThreshold?: number
  weights: Record<string, number>
}

/** The JSON written by scripts/train-clauses.ts and committed as model.json. */
export interface ClauseModel {
  version: 1
  description: string
  /**
   * Weight of a category's second-best sentence in its document score (see documentScore); 0 or
   * absent means the best sentence alone decides.
   */
  secondSentenceWeight?: number
  /**
   * Probability from which a quote takes in its adjacent sentences (quote-ranges.ts), chosen out
   * of fold (decision 0129); absent: single sentences are quoted.
   */
  extendThreshold?: number
  /**
   * At most this many adjacent sentences a quote takes in either side, chosen out of fold with
   * extendThreshold (decision 0132); absent: EXTEND_SENTENCES.
   */
  extendSentences?: number
  categories: CategoryModel[]
}

/** A model laid out for fast scoring: feature name to the categories and weights it touches. */
export interface CompiledClauseModel {
  names: string[]
  secondSentenceWeight: number
  extendThreshold: number | undefined
  extendSentences: number
  biases: Float64Array
  thresholds: Float64Array
  citeThresholds: Float64Array
  table: Map<string, { categories: Int32Array; weights: Float64Array }>
}

/** Indexes a stored model by feature; linear in the number of stored weights. */
export function compileClauseModel(model: ClauseModel): CompiledClauseModel {
  const byFeature = new Map<string, { categories: number[]; weights: number[] }>()
  model.categories.forEach((category, c) => {
    for (const [feature, weight] of Object.entries(category.weights)) {
      let entry = byFeature.get(feature)
      if (!entry) {
        entry = { categories: [], weights: [] }
        byFeature.set(feature, entry)
      }
      entry.categories.push(c)
      entry.weights.push(weight)
    }
  })
  const table = new Map<string, { categories: Int32Array; weights: Float64Array }>()
  for (const [feature, entry] of byFeature) {
    table.set(feature, {
      categories: Int32Array.from(entry.categories),
      weights: Float64Array.from(entry.weights),
    })
  }
  return {
    names: model.categories.map((c) => c.name),
    secondSentenceWeight: model.secondSentenceWeight ?? 0,
    extendThreshold: model.extendThreshold,
    extendSentences: model.extendSentences ?? EXTEND_SENTENCES,
    biases: Float64Array.from(model.categories.map((c) => c.bias)),
    thresholds: Float64Array.from(model.categories.map((c) => c.threshold)),
    citeThresholds: Float64Array.from(
      model.categories.map(
        (c) => c.citeThreshold ?? c.threshold / (1 + (model.secondSentenceWeight ?? 0)),
      ),
    ),
    table,
  }
}

/**
 * Probabilities (0..1) for every sentence and category: result[s][c] is sentence s, category
 * `model.names[c]`. Unknown features are ignored; an empty feature list scores the bias alone.
 */
export function scoreSentences(
  model: CompiledClauseModel,
  features: readonly (readonly string[])[],
): Float64Array[] {
  return features.map((list) => {
    const z = Float64Array.from(model.biases)
    const scale = list.length > 0 ? 1 / Math.sqrt(list.length) : 0
    for (const feature of list) {
      const entry = model.table.get(feature)
      if (!entry) continue
      for (let k = 0; k < entry.categories.length; k += 1) {
        const c = entry.categories[k] ?? 0
        z[c] = (z[c] ?? 0) + (entry.weights[k] ?? 0) * scale
      }
    }
    return z.map((value) => 1 / (1 + Math.exp(-value)))
  })
}

/**
 * A category's document-level score from its sentence probabilities (any order): the best one plus
 * `secondSentenceWeight` times the second best, so that two moderately confident sentences can
 * outweigh one lucky match. 0 for no sentences; at most 1 + secondSentenceWeight.
 */
export function documentScore(
  secondSentenceWeight: number,
  probabilities: ArrayLike<number>,
): number {
  let first = 0
  let second = 0
  for (let i = 0; i < probabilities.length; i += 1) {
    const p = probabilities[i] ?? 0
    if (p > first) {
      second = first
      first = p
    } else if (p > second) second = p
  }
  return first + secondSentenceWeight * second
}
