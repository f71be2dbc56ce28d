/**
 * Trains the local clause classifier: per category, an L2-regularised logistic regression over the
 * sentence features of server/ai/analyzer/local/clauses/sentence-features.ts, fitted by the sparse
 * SGD path of scripts/logistic-regression.ts (seeded shuffle, reproducible), pruned to the strongest weights so that model.json stays small,
 * and given a document-level threshold chosen by cross-validation (max out-of-fold F1); presence is
 * then decided by a document-level model over the aggregated sentence evidence (fitPresenceModel,
 * decision 0139), with its own out-of-fold cuts. By default
 * the stored model is the mean of the cross-validation folds' models (bagging), whose scores are on
 * the scale the thresholds were chosen on.
 */
import {
  documentScore,
  MAX_QUOTES,
  presenceFeatures,
  presenceProbability,
  type ClauseModel,
} from '../server/ai/analyzer/local/clauses/clause-model'
import { sentenceFeatures } from '../server/ai/analyzer/local/clauses/sentence-features'
import { segmentSentences } from '../server/ai/analyzer/local/sentences'
import { documentStructure } from '../server/ai/analyzer/local/structure/document-structure'
import { quoteRanges } from '../server/ai/analyzer/local/clauses/quote-ranges'
import { buildWhitespaceIndex, labelSentences, type CuadContract } from './cuad-dataset'
import { charsInside, locatePassages } from './grounding'
import {
  DEFAULT_FIT,
  fitLogistic,
  fitSparseLogistic,
  seededRandom,
  shuffleInPlace,
  type SparseExample,
} from './logistic-regression'

/** Every contract's sentences as feature ids into `featureNames`, with per-category truth. */
export interface EncodedCorpus {
  featureNames: string[]
  docs: EncodedDoc[]
}

/** `sentences[s]` holds feature ids; `featureCounts[s]` all of them (for the 1/sqrt scaling). */
export interface EncodedDoc {
  sentences: Int32Array[]
  featureCounts: Int32Array
  /** positives[c]: indices of sentences quoting category c. */
  positives: Set<number>[]
  /** present[c]: whether the labels say category c is in the contract. */
  present: boolean[]
  /** citable[s]: 1 when sentence s is operative, so a finding may quote it (detect-clauses.ts). */
  citable: Uint8Array
  /** heading[s]: 1 when sentence s is a heading or section heading (presenceFeatures). */
  heading: Uint8Array
  /** Sentence s spans characters spans[2s] .. spans[2s + 1] of the contract. */
  spans: Int32Array
  /**
   * insideChars[c][s]: how many of sentence s's characters lie inside a passage labelled with
   * category c (eval-cuad's clause_quote_precision counts these).
   */
  insideChars: Int32Array[]
}

export interface TrainOptions {
  seed: number
  epochs: number
  learningRate: number
  l2: number
  /** Weight of a positive sentence's loss; positives are ~1% of sentences. */
  positiveWeight: number
  /**
   * Share of all-negative sentences visited per epoch (a fresh draw each epoch), their loss scaled
   * by its inverse: the same objective in expectation at a fraction of the cost.
   */
  negativeSampling: number
  /** A feature must occur in at least this many training contracts to be learned. */
  minDocFreq: number
  maxFeaturesPerCategory: number
  /** Folds of the inner cross-validation that picks thresholds; below 2 keeps 0.5. */
  thresholdFolds: number
  /**
   * Starting weight of a category's own cue feature (`r:Category`): the hand-written rule acts as
   * a prior that data can overrule, which matters for categories with a dozen positives.
   */
  cuePrior: number
  /**
   * Lowest threshold allowed: with few positives the best out-of-fold cut is often a lucky one far
   * down the score range, which then fires on weak evidence in unseen contracts.
   */
  minThreshold: number
  /**
   * Threshold smoothing: a cut is judged by the mean out-of-fold F1 of the cuts within this many
   * ranks of it (see bestThreshold); 0 takes the single best cut.
   */
  thresholdWindow: number
  /**
   * Deploy the mean of the threshold folds' models instead of a model refitted on all the data
   * (see averagedWeights), keeping averagedFeaturesPerCategory weights per category.
   */
  averageFoldModels: boolean
  /** Weights kept per category of the averaged model (the fold models' supports differ). */
  averagedFeaturesPerCategory: number
  /** Weight of the second-best sentence in a category's document score (see documentScore). */
  secondSentenceWeight: number
  /**
   * Class weighting for rare categories: a category with fewer positive sentences than the median
   * category has its positive weight multiplied by (median / count) ^ rareClassPower, at most
   * rareClassMaxBoost; 0 weighs every category alike.
   */
  rareClassPower: number
  rareClassMaxBoost: number
  /**
   * Citation thresholds (see citeThresholds): a category with fewer present contracts than this
   * among the training contracts takes the threshold pooled over all categories.
   */
  citeMinDocs: number
  /** Citation thresholds: a cut is judged by the mean F1 of the grid cuts this far either side. */
  citeWindow: number
  /**
   * Least out-of-fold quote precision (quoted characters inside a passage labelled with the
   * quote's category) a quoting policy must keep to be chosen (quotingPolicy, decision 0132).
   */
  minQuotePrecision: number
  /**
   * Decide presence with the document-level presence model (presenceModel, decision 0139) instead
   * of documentScore against a per-category threshold.
   */
  presenceModel: boolean
  /**
   * Presence thresholds: each category's own cut is pulled towards the cut pooled over all
   * categories as if that pooled cut had this many contracts' weight ((n · own + k · pooled) /
   * (n + k), n the category's present training contracts), so that a rare category's cut, found
   * on a dozen contracts, leans on the common one.
   */
  presenceShrink: number
  /** Window (ranks either side, see thresholdChoice) of the pooled presence cut. */
  presencePooledWindow: number
}

export const DEFAULT_TRAIN_OPTIONS: TrainOptions = {
  seed: 20210301,
  epochs: 6,
  learningRate: 0.5,
  l2: 1e-4,
  positiveWeight: 4,
  negativeSampling: 0.35,
  minDocFreq: 3,
  maxFeaturesPerCategory: 1000,
  thresholdFolds: 5,
  minThreshold: 0.1,
  thresholdWindow: 3,
  averageFoldModels: true,
  averagedFeaturesPerCategory: 800,
  cuePrior: 3,
  secondSentenceWeight: 0.5,
  rareClassPower: 0.7,
  rareClassMaxBoost: 4,
  citeMinDocs: 15,
  citeWindow: 2,
  minQuotePrecision: 0.55,
  presenceModel: true,
  presenceShrink: 10,
  presencePooledWindow: 20,
}

/**
 * Segments, featurises and labels contracts for `categories`: a sentence is positive for a category
 * when it quotes one of that category's CUAD clause texts; a contract has the category when its
 * CSV cell is not empty. Also returns how many quoted pieces could not be found in the text.
 */
export function corpusFromContracts(
  contracts: readonly CuadContract[],
  categories: readonly string[],
): { corpus: EncodedCorpus; missingQuotes: number } {
  let missingQuotes = 0
  const docs = contracts.map((contract) => {
    const sentences = segmentSentences(contract.content)
    const typed = documentStructure(sentences)
    const index = buildWhitespaceIndex(contract.content)
    const present: boolean[] = []
    const insideChars: number[][] = []
    const positives = categories.map((category) => {
      const texts = contract.clauses.get(category) ?? []
      present.push(texts.length > 0)
      const labelled = labelSentences(contract.content, sentences, texts, index)
      missingQuotes += labelled.missing
      // Located as eval-cuad.ts locates them, so the trainer's quote precision is the eval's.
      const passages = locatePassages(contract.content, texts)
      insideChars.push(sentences.map((sentence) => charsInside(sentence, passages)))
      return labelled.positives
    })
    return {
      features: sentenceFeatures(sentences, typed),
      positives,
      present,
      citable: typed.map((sentence) => sentence.kind === 'operative'),
      headings: typed.map((s) => s.kind === 'heading' || s.kind === 'section-heading'),
      spans: sentences,
      insideChars,
    }
  })
  return { corpus: encodeCorpus(docs), missingQuotes }
}

/** Interns feature names to ids across all contracts; `positives`/`present` as in EncodedDoc. */
export function encodeCorpus(
  docs: readonly {
    features: string[][]
    positives: Set<number>[]
    present: boolean[]
    /** Defaults to every sentence citable. */
    citable?: readonly boolean[]
    /** Defaults to no sentence a heading. */
    headings?: readonly boolean[]
    /** Character spans; by default sentence s is the one character s (quote precision by sentence). */
    spans?: readonly { start: number; end: number }[]
    /** Per category, labelled characters per sentence; by default 1 for a positive sentence. */
    insideChars?: readonly (readonly number[])[]
  }[],
): EncodedCorpus {
  const ids = new Map<string, number>()
  const featureNames: string[] = []
  const encoded = docs.map((doc) => ({
    sentences: doc.features.map((list) =>
      Int32Array.from(list, (name) => {
        let id = ids.get(name)
        if (id === undefined) {
          id = featureNames.length
          ids.set(name, id)
          featureNames.push(name)
        }
        return id
      }),
    ),
    featureCounts: Int32Array.from(doc.features, (list) => list.length),
    positives: doc.positives,
    present: doc.present,
    citable: Uint8Array.from(doc.features, (_, s) => (doc.citable?.[s] === false ? 0 : 1)),
    heading: Uint8Array.from(doc.features, (_, s) => (doc.headings?.[s] === true ? 1 : 0)),
    spans: Int32Array.from(
      doc.features.flatMap((_, s) => {
        const span = doc.spans?.[s]
        return span ? [span.start, span.end] : [s, s + 1]
      }),
    ),
    insideChars: doc.positives.map((set, c) =>
      Int32Array.from(doc.features, (_, s) => doc.insideChars?.[c]?.[s] ?? (set.has(s) ? 1 : 0)),
    ),
  }))
  return { featureNames, docs: encoded }
}

/** A fold number (0..k-1) for each of n items, balanced and shuffled with `seed`. */
export function assignFolds(n: number, k: number, seed: number): number[] {
  const order = shuffleInPlace(
    Array.from({ length: n }, (_, i) => i),
    seededRandom(seed),
  )
  const folds = new Array<number>(n).fill(0)
  order.forEach((item, rank) => {
    folds[item] = rank % k
  })
  return folds
}

/**
 * Fits a model on `docs` for `categories` (indices into each doc's positives/present line up with
 * it). Thresholds come from an inner `thresholdFolds`-fold cross-validation over these docs only.
 */
export function trainClauseModel(
  corpus: EncodedCorpus,
  docIndices: readonly number[],
  categories: readonly string[],
  options: TrainOptions = DEFAULT_TRAIN_OPTIONS,
): ClauseModel {
  const thresholds = new Array<number>(categories.length).fill(0.5)
  let citeCuts: (number | undefined)[] = []
  let extendThreshold: number | undefined
  let extendSentences: number | undefined
  let presence: PresenceModel | undefined
  const foldModels: Fitted[] = []
  if (options.thresholdFolds >= 2) {
    const folds = assignFolds(docIndices.length, options.thresholdFolds, options.seed + 1)
    const scores: Float64Array[] = new Array<Float64Array>(docIndices.length)
    const sentenceScores: Float64Array[][] = new Array<Float64Array[]>(docIndices.length)
    for (let f = 0; f < options.thresholdFolds; f += 1) {
      const train = docIndices.filter((_, i) => folds[i] !== f)
      const heldOut = docIndices.map((d, i) => ({ d, i })).filter(({ i }) => folds[i] === f)
      const fitted = fit(corpus, train, categories, options)
      foldModels.push(fitted)
      for (const { d, i } of heldOut) {
        const doc = corpus.docs[d]
        if (!doc) continue
        sentenceScores[i] = sentenceProbabilities(fitted, doc)
        scores[i] = Float64Array.from(sentenceScores[i], (column) =>
          documentScore(options.secondSentenceWeight, column),
        )
      }
    }
    categories.forEach((_, c) => {
      thresholds[c] = Math.max(
        options.minThreshold,
        bestThreshold(
          scores.map((row) => row[c] ?? 0),
          docIndices.map((d) => corpus.docs[d]?.present[c] ?? false),
          0.99 * (1 + options.secondSentenceWeight),
          options.thresholdWindow,
        ),
      )
    })
    if (options.presenceModel) {
      presence = fitPresenceModel(
        docIndices.map((d, i) => ({ doc: corpus.docs[d], columns: sentenceScores[i] ?? [] })),
        categories.length,
        options,
      )
    }
    const held = docIndices.map((d, i) => ({
      doc: corpus.docs[d],
      columns: sentenceScores[i] ?? [],
      reported: categories.map((_, c) =>
        presence
          ? presence.reported[i]?.[c] === true
          : (scores[i]?.[c] ?? 0) >= (thresholds[c] ?? 1),
      ),
    }))
    citeCuts = citeThresholds(held, categories.length, options)
    const policy = quotingPolicy(held, citeCuts, options.minQuotePrecision)
    citeCuts = citeCuts.map((cut) => (cut === undefined ? cut : Math.max(cut, policy.citeFloor)))
    extendThreshold = policy.extendThreshold
    extendSentences = policy.extendSentences
  }
  const stored =
    options.averageFoldModels && foldModels.length > 0
      ? averagedWeights(foldModels, corpus, categories.length, options.averagedFeaturesPerCategory)
      : fittedWeights(fit(corpus, docIndices, categories, options), corpus, categories.length)
  return {
    version: 1,
    description:
      'Logistic regression per CUAD category over sentence features; trained by scripts/train-clauses.ts on CUAD v1 (The Atticus Project, Hendrycks et al. 2021, CC BY 4.0).',
    secondSentenceWeight: options.secondSentenceWeight,
    ...(extendThreshold === undefined ? {} : { extendThreshold, extendSentences }),
    ...(presence ? { presence: { weights: presence.weights.map(round) } } : {}),
    categories: categories.map((name, c) => ({
      name,
      bias: round(stored.biases[c] ?? 0),
      threshold: round(thresholds[c] ?? 0.5),
      ...(citeCuts[c] === undefined ? {} : { citeThreshold: round(citeCuts[c]) }),
      ...(presence
        ? {
            presenceBias: round(presence.biases[c] ?? 0),
            presenceThreshold: round(presence.thresholds[c] ?? 1),
          }
        : {}),
      weights: stored.weights[c] ?? {},
    })),
  }
}

/** The document-level presence model of fitPresenceModel. */
export interface PresenceModel {
  /** Slopes over presenceFeatures (weights[0] the common intercept). */
  weights: number[]
  /** Per category, the intercept added to weights[0]. */
  biases: number[]
  /** Per category, the presence probability from which the category is reported. */
  thresholds: number[]
  /** reported[i][c]: the out-of-fold decision for held[i], as the thresholds decide it. */
  reported: boolean[][]
}

/**
 * Folds of the presence model's own cross-validation (its out-of-fold scores set the cuts), as
 * many as the inner folds of the sentence model (TrainOptions.thresholdFolds' default).
 */
const PRESENCE_FOLDS = 5

/**
 * The document-level presence model (decision 0139), from out-of-fold sentence probabilities
 * (`held[i].columns[c][s]`): one logistic regression over every (contract, category) pair, with
 * presenceFeatures' columns as slopes shared by all categories and an intercept per category
 * (one-hot), so that its probability is calibrated per category while a rare category's
 * evidence is read with the slopes learned on all of them; fitted by fitLogistic with DEFAULT_FIT
 * (the dense path's settings, decision 0130). Its thresholds come from its own
 * PRESENCE_FOLDS-fold out-of-fold probabilities (split by contract): per category the cut of best
 * smoothed F1 (thresholdChoice, options.thresholdWindow), pulled towards the cut pooled over all
 * pairs (options.presencePooledWindow) by options.presenceShrink. Deterministic.
 */
export function fitPresenceModel(
  held: readonly { doc: EncodedDoc | undefined; columns: Float64Array[] }[],
  categoryCount: number,
  options: Pick<
    TrainOptions,
    'seed' | 'thresholdWindow' | 'presenceShrink' | 'presencePooledWindow'
  >,
): PresenceModel {
  const features = held.map(({ doc, columns }) =>
    Array.from({ length: categoryCount }, (_, c) =>
      presenceFeatures(
        columns[c] ?? [],
        (s) => doc?.citable[s] === 1,
        (s) => doc?.heading[s] === 1,
      ),
    ),
  )
  const present = held.map(({ doc }) =>
    Array.from({ length: categoryCount }, (_, c) => doc?.present[c] === true),
  )
  const width = features[0]?.[0]?.length ?? 0
  const fitOn = (indices: readonly number[]) => {
    const rows: number[][] = []
    const labels: number[] = []
    for (const i of indices) {
      for (let c = 0; c < categoryCount; c += 1) {
        const oneHot = Array.from({ length: categoryCount - 1 }, (_, k) => (k + 1 === c ? 1 : 0))
        rows.push([...(features[i]?.[c] ?? []), ...oneHot])
        labels.push(present[i]?.[c] ? 1 : 0)
      }
    }
    const w = fitLogistic(rows, labels, DEFAULT_FIT)
    return {
      weights: w.slice(0, width),
      biases: Array.from({ length: categoryCount }, (_, c) =>
        c > 0 ? (w[width + c - 1] ?? 0) : 0,
      ),
    }
  }
  const probability = (model: { weights: number[]; biases: number[] }, i: number, c: number) =>
    presenceProbability(model.weights, model.biases[c] ?? 0, features[i]?.[c] ?? [])
  const folds = assignFolds(held.length, PRESENCE_FOLDS, options.seed + 2)
  const oof = held.map(() => new Array<number>(categoryCount).fill(0))
  for (let f = 0; f < PRESENCE_FOLDS; f += 1) {
    const model = fitOn(held.map((_, i) => i).filter((i) => folds[i] !== f))
    held.forEach((_, i) => {
      if (folds[i] !== f) return
      for (let c = 0; c < categoryCount; c += 1) {
        const row = oof[i]
        if (row) row[c] = probability(model, i, c)
      }
    })
  }
  const pooled = thresholdChoice(
    oof.flat(),
    present.flat(),
    0.99,
    options.presencePooledWindow,
  ).threshold
  const thresholds = Array.from({ length: categoryCount }, (_, c) => {
    const n = present.filter((row) => row[c]).length
    const own = thresholdChoice(
      oof.map((row) => row[c] ?? 0),
      present.map((row) => row[c] ?? false),
      0.99,
      options.thresholdWindow,
    ).threshold
    return (n * own + options.presenceShrink * pooled) / (n + options.presenceShrink)
  })
  const model = fitOn(held.map((_, i) => i))
  return {
    ...model,
    thresholds,
    reported: oof.map((row) => row.map((p, c) => p >= (thresholds[c] ?? 1))),
  }
}

/** Per category, a fitted model's non-zero weights by feature name, and its biases. */
function fittedWeights(
  fitted: Fitted,
  corpus: EncodedCorpus,
  categoryCount: number,
): { biases: number[]; weights: Record<string, number>[] } {
  const weights = Array.from({ length: categoryCount }, () => ({}) as Record<string, number>)
  for (let local = 0; local < fitted.vocabSize; local += 1) {
    const name = corpus.featureNames[fitted.globalIds[local] ?? 0] ?? ''
    weights.forEach((column, c) => {
      const w = fitted.weights[local * categoryCount + c] ?? 0
      if (w !== 0) column[name] = round(w)
    })
  }
  return { biases: Array.from(fitted.biases), weights }
}

/**
 * The mean of the inner-fold models (bagging): the deployed model then scores on the same scale as
 * the out-of-fold scores its thresholds were chosen on, which a model refitted on all the data
 * does not (it is more confident, so the thresholds let through more false positives). A weight
 * is averaged over the fold models that kept it: the others dropped it to stay within their
 * budget, not because it was worth 0, and diluting it would mostly cost the rare categories. Each
 * category keeps its `budget` strongest mean weights, ties broken by feature id.
 */
function averagedWeights(
  models: readonly Fitted[],
  corpus: EncodedCorpus,
  categoryCount: number,
  budget: number,
): { biases: number[]; weights: Record<string, number>[] } {
  const sums = Array.from({ length: categoryCount }, () => new Map<number, number>())
  const counts = Array.from({ length: categoryCount }, () => new Map<number, number>())
  const biases = new Array<number>(categoryCount).fill(0)
  for (const model of models) {
    for (let local = 0; local < model.vocabSize; local += 1) {
      const id = model.globalIds[local] ?? 0
      sums.forEach((column, c) => {
        const w = model.weights[local * categoryCount + c] ?? 0
        if (w === 0) return
        column.set(id, (column.get(id) ?? 0) + w)
        counts[c]?.set(id, (counts[c]?.get(id) ?? 0) + 1)
      })
    }
    model.biases.forEach((b, c) => {
      biases[c] = (biases[c] ?? 0) + b / models.length
    })
  }
  const weights = sums.map((column, c) => {
    const kept = [...column]
      .map(([id, sum]) => ({ id, w: sum / (counts[c]?.get(id) ?? 1) }))
      .sort((a, b) => Math.abs(b.w) - Math.abs(a.w) || a.id - b.id)
      .slice(0, budget)
      .sort((a, b) => a.id - b.id)
    const stored: Record<string, number> = {}
    for (const { id, w } of kept) {
      const rounded = round(w)
      if (rounded !== 0) stored[corpus.featureNames[id] ?? ''] = rounded
    }
    return stored
  })
  return { biases, weights }
}

interface Fitted {
  vocabSize: number
  /** global feature id -> local row, or -1 when not learned. */
  localIds: Int32Array
  globalIds: Int32Array
  /** weights[local * categoryCount + c] */
  weights: Float32Array
  biases: Float64Array
}

function fit(
  corpus: EncodedCorpus,
  docIndices: readonly number[],
  categories: readonly string[],
  options: TrainOptions,
): Fitted {
  const categoryCount = categories.length
  const featureIds = new Map(corpus.featureNames.map((name, id) => [name, id]))
  const docFreq = new Int32Array(corpus.featureNames.length)
  const seen = new Int32Array(corpus.featureNames.length).fill(-1)
  for (const d of docIndices) {
    for (const sentence of corpus.docs[d]?.sentences ?? []) {
      for (const id of sentence) {
        if (seen[id] !== d) {
          seen[id] = d
          docFreq[id] = (docFreq[id] ?? 0) + 1
        }
      }
    }
  }
  const localIds = new Int32Array(corpus.featureNames.length).fill(-1)
  const globalList: number[] = []
  docFreq.forEach((count, id) => {
    if (count >= options.minDocFreq) {
      localIds[id] = globalList.length
      globalList.push(id)
    }
  })
  const vocabSize = globalList.length
  const examples: SparseExample[] = []
  for (const d of docIndices) {
    const doc = corpus.docs[d]
    if (!doc) continue
    doc.sentences.forEach((sentence, s) => {
      const local: number[] = []
      for (const id of sentence) {
        const l = localIds[id] ?? -1
        if (l >= 0) local.push(l)
      }
      const labels = new Uint8Array(categoryCount)
      doc.positives.forEach((set, c) => {
        if (set.has(s)) labels[c] = 1
      })
      const count = doc.featureCounts[s] ?? 0
      examples.push({
        x: Int32Array.from(local),
        scale: count > 0 ? 1 / Math.sqrt(count) : 0,
        labels,
        positive: labels.includes(1),
      })
    })
  }
  const initial = new Float32Array(categoryCount * vocabSize)
  categories.forEach((category, c) => {
    const local = localIds[featureIds.get(`r:${category}`) ?? -1] ?? -1
    if (local >= 0) initial[local * categoryCount + c] = options.cuePrior
  })
  const { weights, biases } = fitSparseLogistic(
    examples,
    vocabSize,
    categoryCount,
    {
      seed: options.seed,
      epochs: options.epochs,
      settleEpochs: 2,
      learningRate: options.learningRate,
      l2: options.l2,
      negativeSampling: options.negativeSampling,
      positiveWeights: classWeights(examples, categoryCount, options),
      maxFeaturesPerOutput: options.maxFeaturesPerCategory,
      initialBias: -4,
    },
    initial,
  )
  return { vocabSize, localIds, globalIds: Int32Array.from(globalList), weights, biases }
}

/** Per category, positiveWeight with the rare-class boost of TrainOptions.rareClassPower. */
function classWeights(
  examples: readonly { labels: Uint8Array }[],
  categoryCount: number,
  options: TrainOptions,
): Float64Array {
  const counts = new Float64Array(categoryCount)
  for (const { labels } of examples) {
    for (let c = 0; c < categoryCount; c += 1) counts[c] = (counts[c] ?? 0) + (labels[c] ?? 0)
  }
  const sorted = Array.from(counts).sort((a, b) => a - b)
  const median = sorted[Math.floor(sorted.length / 2)] ?? 1
  return counts.map((count) => {
    const boost = Math.pow(median / Math.max(count, 1), options.rareClassPower)
    return options.positiveWeight * Math.min(options.rareClassMaxBoost, Math.max(1, boost))
  })
}

/** The candidate citation thresholds: 0.02, 0.04, … 0.98. */
const CITE_GRID = Array.from({ length: 49 }, (_, i) => (i + 1) / 50)

/**
 * Per category, the sentence probability from which an operative sentence is quoted besides the
 * best one, chosen on out-of-fold scores as detect-clauses.ts quotes: in each contract where the
 * category is reported, the best citable sentence always, then those at or above the cut, at
 * most MAX_QUOTES. A cut is judged by the F1 of quote precision (quoted sentences that are
 * labelled) and passage recall (labelled passages, runs of adjacent labelled citable sentences, of
 * contracts that have the category, with a quoted sentence), as eval-cuad.ts scores grounding;
 * averaged over `citeWindow` grid cuts either side; a category present in fewer than
 * `citeMinDocs` contracts takes the cut that is best on the counts pooled over all categories.
 * undefined for a category without any present contract (the model's default then applies).
 */
export function citeThresholds(
  held: readonly { doc: EncodedDoc | undefined; columns: Float64Array[]; reported: boolean[] }[],
  categoryCount: number,
  options: Pick<TrainOptions, 'citeMinDocs' | 'citeWindow'>,
): (number | undefined)[] {
  const counts = () => CITE_GRID.map(() => ({ quoted: 0, correct: 0, labelled: 0, found: 0 }))
  const pooled = counts()
  const perCategory = Array.from({ length: categoryCount }, counts)
  const presentDocs = new Array<number>(categoryCount).fill(0)
  for (const { doc, columns, reported } of held) {
    if (!doc) continue
    for (let c = 0; c < categoryCount; c += 1) {
      const positives = doc.positives[c] ?? new Set<number>()
      const column = columns[c]
      if (!column) continue
      if (doc.present[c]) presentDocs[c] = (presentDocs[c] ?? 0) + 1
      // A labelled passage often spans several sentences, and quoting any one of them finds it
      // (eval-cuad's span recall): recall counts passages, runs of adjacent labelled sentences.
      const passageOf = new Map<number, number>()
      let labelled = 0
      for (const s of [...positives].sort((a, b) => a - b)) {
        if (doc.citable[s] !== 1) continue
        const run = passageOf.get(s - 1)
        if (run === undefined) labelled += 1
        passageOf.set(s, run ?? labelled)
      }
      const ranked: { s: number; p: number }[] = []
      if (reported[c]) {
        for (let s = 0; s < column.length; s += 1) {
          if (doc.citable[s] === 1) ranked.push({ s, p: column[s] ?? 0 })
        }
        ranked.sort((a, b) => b.p - a.p || a.s - b.s)
        ranked.length = Math.min(ranked.length, MAX_QUOTES)
      }
      CITE_GRID.forEach((cut, g) => {
        const quoted = ranked.filter((hit, rank) => rank === 0 || hit.p >= cut)
        const correct = quoted.filter((hit) => positives.has(hit.s)).length
        const found = new Set(quoted.map((hit) => passageOf.get(hit.s)).filter((run) => run)).size
        for (const row of [perCategory[c]?.[g], pooled[g]]) {
          if (!row) continue
          row.quoted += quoted.length
          row.correct += correct
          row.labelled += labelled
          row.found += found
        }
      })
    }
  }
  const best = (rows: { quoted: number; correct: number; labelled: number; found: number }[]) => {
    const f1 = rows.map(({ quoted, correct, labelled, found }) => {
      const precision = quoted > 0 ? correct / quoted : 0
      const recall = labelled > 0 ? found / labelled : 0
      return precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0
    })
    let bestCut = CITE_GRID[CITE_GRID.length - 1] ?? 1
    let bestScore = -1
    CITE_GRID.forEach((cut, g) => {
      const from = Math.max(0, g - options.citeWindow)
      const to = Math.min(CITE_GRID.length - 1, g + options.citeWindow)
      let sum = 0
      for (let k = from; k <= to; k += 1) sum += f1[k] ?? 0
      const score = sum / (to - from + 1)
      if (score > bestScore) {
        bestScore = score
        bestCut = cut
      }
    })
    return bestCut
  }
  const pooledCut = best(pooled)
  return perCategory.map((rows, c) => {
    const docs = presentDocs[c] ?? 0
    if (docs === 0) return undefined
    return docs < options.citeMinDocs ? pooledCut : best(rows)
  })
}

/** Candidate cite floors of quotingPolicy: 0 (none), 0.1 … 0.7. */
const FLOOR_GRID = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]

/**
 * Candidate extension thresholds of quotingPolicy; undefined quotes single sentences. Widened
 * upwards in decision 0132: the old grid stopped at 0.5, and its bottom (0.05) was chosen.
 */
const EXTEND_GRID = [undefined, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.15, 0.1, 0.05]

/** Candidate reaches of an extension: at most this many sentences either side. */
const EXTEND_SENTENCES_GRID = [1, 2]

/** One quoting setting of quotingPolicy with its out-of-fold counts. */
export interface QuotingSetting {
  citeFloor: number
  extendThreshold: number | undefined
  /** Reach of the extension (1 or 2 sentences either side); 1 when extendThreshold is undefined. */
  extendSentences: number
  /** Quotes that take in a labelled sentence of their category / all quotes (eval's grounding). */
  grounding: number
  /** Labelled passages with a quote / all labelled passages (eval's span recall). */
  recall: number
  /** Quoted characters inside a passage labelled with the category / quoted characters. */
  precision: number
  /** F1 of grounding and recall, the quantity maximised. */
  f1: number
}

/**
 * The quoting settings chosen on out-of-fold sentence scores, on the counts pooled over every
 * category (decisions 0129, 0132):
 * - `citeFloor`, the least cite threshold of any category: a category with few contracts, or a
 *   lucky grid cut, otherwise quotes down to 0.02 (every one of its three best sentences), which
 *   the per-category choice cannot see is wrong on so few contracts;
 * - `extendThreshold`, the probability from which a quote takes in the adjacent citable sentences,
 *   and `extendSentences`, how many at most either side: CUAD's passages often run over several
 *   sentences, and a quote of the best one alone misses or sits next to the rest ("cited
 *   neighbour" failures).
 * Judged as citeThresholds judges a cut (F1 of grounding, a quote being correct when it takes in a
 * labelled sentence, and passage recall), with quotes as detect-clauses.ts makes them: the best
 * citable sentence, then those at or above max(cut, floor), at most MAX_QUOTES, each extended,
 * overlapping quotes merged. Grounding counts any overlap, so it rewards wide quotes: only the
 * settings whose quote precision (quoted characters inside a labelled passage of the category)
 * reaches `minPrecision` compete; when none does, the most precise setting is taken. `cuts` are
 * the per-category cite thresholds. Also returns every setting's counts (`settings`).
 */
export function quotingPolicy(
  held: readonly { doc: EncodedDoc | undefined; columns: Float64Array[]; reported: boolean[] }[],
  cuts: readonly (number | undefined)[],
  minPrecision = 0,
): {
  citeFloor: number
  extendThreshold: number | undefined
  extendSentences: number
  settings: QuotingSetting[]
} {
  // Each reported category's best citable sentences and labelled passages, once for every setting.
  let labelled = 0
  const cases: {
    top: { s: number; p: number }[]
    column: Float64Array
    cut: number
    citable: Uint8Array
    spans: Int32Array
    inside: Int32Array
    positives: Set<number>
    passageOf: Map<number, number>
  }[] = []
  for (const { doc, columns, reported } of held) {
    if (!doc) continue
    columns.forEach((column, c) => {
      const positives = doc.positives[c] ?? new Set<number>()
      const passageOf = new Map<number, number>()
      for (const s of [...positives].sort((a, b) => a - b)) {
        if (doc.citable[s] !== 1) continue
        const run = passageOf.get(s - 1)
        if (run === undefined) labelled += 1
        passageOf.set(s, run ?? labelled)
      }
      if (!reported[c]) return
      const top: { s: number; p: number }[] = []
      for (let s = 0; s < column.length; s += 1) {
        if (doc.citable[s] === 1) top.push({ s, p: column[s] ?? 0 })
      }
      top.sort((a, b) => b.p - a.p || a.s - b.s)
      top.length = Math.min(top.length, MAX_QUOTES)
      const inside = doc.insideChars[c] ?? new Int32Array(column.length)
      const { citable, spans } = doc
      cases.push({ top, column, cut: cuts[c] ?? 1, citable, spans, inside, positives, passageOf })
    })
  }
  const settings: QuotingSetting[] = []
  for (const extend of EXTEND_GRID) {
    for (const reach of extend === undefined ? [1] : EXTEND_SENTENCES_GRID) {
      for (const floor of FLOOR_GRID) {
        let quoted = 0
        let correct = 0
        let found = 0
        let chars = 0
        let insideChars = 0
        for (const { top, column, cut, citable, spans, inside, positives, passageOf } of cases) {
          const bar = Math.max(cut, floor)
          const chosen = top.filter((hit, rank) => rank === 0 || hit.p >= bar).map(({ s }) => s)
          const runs = new Set<number>()
          const ranges = quoteRanges(chosen, column, (s) => citable[s] === 1, extend, reach)
          for (const [from, to] of ranges) {
            quoted += 1
            chars += (spans[2 * to + 1] ?? 0) - (spans[2 * from] ?? 0)
            let hit = false
            for (let s = from; s <= to; s += 1) {
              const run = passageOf.get(s)
              if (run !== undefined) runs.add(run)
              if (positives.has(s)) hit = true
              insideChars += inside[s] ?? 0
            }
            if (hit) correct += 1
          }
          found += runs.size
        }
        const grounding = quoted > 0 ? correct / quoted : 0
        const recall = labelled > 0 ? found / labelled : 0
        const precision = chars > 0 ? insideChars / chars : 0
        const f1 = grounding + recall > 0 ? (2 * grounding * recall) / (grounding + recall) : 0
        settings.push({
          citeFloor: floor,
          extendThreshold: extend,
          extendSentences: reach,
          grounding,
          recall,
          precision,
          f1,
        })
      }
    }
  }
  // The first setting of the grid wins a tie: no extension before any, the lower floor first.
  const eligible = settings.filter((setting) => setting.precision >= minPrecision)
  const pick = (rows: QuotingSetting[], key: (row: QuotingSetting) => number) =>
    rows.reduce((best, row) => (key(row) > key(best) ? row : best))
  const best =
    eligible.length > 0 ? pick(eligible, (row) => row.f1) : pick(settings, (row) => row.precision)
  return {
    citeFloor: best.citeFloor,
    extendThreshold: best.extendThreshold,
    extendSentences: best.extendSentences,
    settings,
  }
}

/** Per category, the probability of every sentence of `doc` (columns[c][s]). */
function sentenceProbabilities(fitted: Fitted, doc: EncodedDoc): Float64Array[] {
  const categoryCount = fitted.biases.length
  const columns = Array.from(
    { length: categoryCount },
    () => new Float64Array(doc.sentences.length),
  )
  doc.sentences.forEach((sentence, s) => {
    const count = doc.featureCounts[s] ?? 0
    const scale = count > 0 ? 1 / Math.sqrt(count) : 0
    const z = Float64Array.from(fitted.biases)
    for (const id of sentence) {
      const l = fitted.localIds[id] ?? -1
      if (l < 0) continue
      for (let c = 0; c < categoryCount; c += 1) {
        z[c] = (z[c] ?? 0) + (fitted.weights[l * categoryCount + c] ?? 0) * scale
      }
    }
    for (let c = 0; c < categoryCount; c += 1) {
      const column = columns[c]
      if (column) column[s] = 1 / (1 + Math.exp(-(z[c] ?? 0)))
    }
  })
  return columns
}

/**
 * The document-level threshold that maximises F1 of "score >= threshold" against `labels`,
 * placed midway between the last accepted and the first rejected score, within 0.01..`ceiling`.
 * With `window` > 0 each cut is judged by the mean F1 of the cuts up to `window` ranks either side,
 * so that a lone lucky peak in a few dozen out-of-fold scores does not set the threshold.
 * `ceiling` when there are no positives.
 */
export function bestThreshold(
  scores: readonly number[],
  labels: readonly boolean[],
  ceiling = 0.99,
  window = 0,
): number {
  return thresholdChoice(scores, labels, ceiling, window).threshold
}

/** bestThreshold's cut with its (smoothed) F1; F1 0 when there are no positives. */
export function thresholdChoice(
  scores: readonly number[],
  labels: readonly boolean[],
  ceiling = 0.99,
  window = 0,
): { threshold: number; f1: number } {
  const total = labels.filter(Boolean).length
  if (total === 0) return { threshold: ceiling, f1: 0 }
  const order = scores.map((score, i) => ({ score, label: labels[i] ?? false }))
  order.sort((a, b) => b.score - a.score)
  let tp = 0
  const f1s = order.map((item, i) => {
    if (item.label) tp += 1
    return (2 * tp) / (i + 1 + total)
  })
  let bestF1 = -1
  let bestCut = 1
  order.forEach((item, i) => {
    const next = order[i + 1]
    if (next && next.score >= item.score) return
    const from = Math.max(0, i - window)
    const to = Math.min(order.length - 1, i + window)
    let sum = 0
    for (let j = from; j <= to; j += 1) sum += f1s[j] ?? 0
    const f1 = sum / (to - from + 1)
    if (f1 > bestF1) {
      bestF1 = f1
      bestCut = next ? (item.score + next.score) / 2 : item.score / 2
    }
  })
  return { threshold: Math.min(ceiling, Math.max(0.01, bestCut)), f1: bestF1 }
}

function round(value: number): number {
  return Math.round(value * 1e4) / 1e4
}
