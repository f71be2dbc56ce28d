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
  /**
   * With ClauseModel.presence: this category's intercept in the presence model and the presence
   * probability at or above which the contract has the category (decision 0139); `threshold`
   * then only sets the default cite threshold.
   */
  presenceBias?: number
  presenceThreshold?: number
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
  /**
   * The document-level presence model (decision 0139): slopes over presenceFeatures shared by
   * every category (`weights[0]` the common intercept, to which each category's presenceBias is
   * added); absent: a category is present when its documentScore reaches its threshold.
   */
  presence?: { weights: number[] }
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
  /** Shared presence slopes (ClauseModel.presence), or undefined for the documentScore rule. */
  presenceWeights: number[] | undefined
  presenceBiases: Float64Array
  presenceThresholds: Float64Array
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
    presenceWeights: model.presence?.weights,
    presenceBiases: Float64Array.from(model.categories.map((c) => c.presenceBias ?? 0)),
    presenceThresholds: Float64Array.from(model.categories.map((c) => c.presenceThreshold ?? 1)),
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

/**
 * Names of presenceFeatures' columns, in order (the first is the constant 1 of the intercept).
 * A model's presence weights line up with them.
 */
export const PRESENCE_FEATURES = [
  'intercept',
  'logit best',
  'logit second',
  'logit third',
  'logit best operative',
  'logit best heading',
  'log1p count >= 0.5',
  'log1p count >= 0.2',
  'log1p count >= 0.05',
  'best position',
  'best is operative',
] as const

/** Logit with probabilities clamped to 1e-6 .. 1 - 1e-6, so 0 and 1 stay finite. */
function logit(p: number): number {
  const q = Math.min(1 - 1e-6, Math.max(1e-6, p))
  return Math.log(q / (1 - q))
}

/**
 * One category's evidence aggregated over a document (decision 0139): from the sentence
 * probabilities (document order) and which sentences are operative (quotable) or headings, the
 * columns of PRESENCE_FEATURES: the logits of the three best sentences, of the best operative one
 * and of the best heading (0 when there is none: logit(0) clamped), log(1 + the number of
 * sentences at or above 0.5, 0.2 and 0.05), the best sentence's relative position (0..1) and
 * whether it is operative. Pure; an empty document gives the clamped logits and zero counts.
 */
export function presenceFeatures(
  probabilities: ArrayLike<number>,
  operative: (s: number) => boolean,
  heading: (s: number) => boolean,
): number[] {
  let first = 0
  let second = 0
  let third = 0
  let bestAt = 0
  let bestOperative = 0
  let bestHeading = 0
  let over50 = 0
  let over20 = 0
  let over05 = 0
  const n = probabilities.length
  for (let s = 0; s < n; s += 1) {
    const p = probabilities[s] ?? 0
    if (p > first) {
      third = second
      second = first
      first = p
      bestAt = s
    } else if (p > second) {
      third = second
      second = p
    } else if (p > third) third = p
    if (operative(s)) bestOperative = Math.max(bestOperative, p)
    if (heading(s)) bestHeading = Math.max(bestHeading, p)
    if (p >= 0.5) over50 += 1
    if (p >= 0.2) over20 += 1
    if (p >= 0.05) over05 += 1
  }
  return [
    1,
    logit(first),
    logit(second),
    logit(third),
    logit(bestOperative),
    logit(bestHeading),
    Math.log1p(over50),
    Math.log1p(over20),
    Math.log1p(over05),
    n > 0 ? bestAt / n : 0,
    n > 0 && operative(bestAt) ? 1 : 0,
  ]
}

/** σ(weights · features + bias): the presence model's probability that the category is there. */
export function presenceProbability(
  weights: readonly number[],
  bias: number,
  features: readonly number[],
): number {
  let z = bias
  for (let j = 0; j < features.length; j += 1) z += (weights[j] ?? 0) * (features[j] ?? 0)
  return 1 / (1 + Math.exp(-z))
}
