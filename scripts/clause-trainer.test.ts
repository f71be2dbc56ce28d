import { describe, expect, it } from 'vitest'
import {
  bestThreshold,
  citeThresholds,
  corpusFromContracts,
  quotingPolicy,
  DEFAULT_TRAIN_OPTIONS,
  encodeCorpus,
  fitPresenceModel,
  thresholdChoice,
  trainClauseModel,
} from './clause-trainer'
import { documentScore } from '../server/ai/analyzer/local/clauses/clause-model'

describe('bestThreshold', () => {
  it('cuts midway between the last positive and the first negative when they separate', () => {
    expect(bestThreshold([0.9, 0.8, 0.3, 0.2], [true, true, false, false])).toBeCloseTo(0.55)
  })

  it('keeps the ceiling without positives and the floor of 0.01 otherwise', () => {
    expect(bestThreshold([0.4, 0.2], [false, false], 0.9)).toBe(0.9)
    expect(bestThreshold([0.004, 0.002], [true, true])).toBe(0.01)
  })

  it('with a window, judges each cut by the mean F1 of the cuts around it', () => {
    // Ranked + - - + + + - - and eight more negatives; 4 positives. F1 per cut (keeping the top
    // i + 1): .40 .33 .29 .50 .67 .80 .73 .67 .62 .57 … The single best cut keeps six (0.80,
    // threshold 0.45); averaged over two ranks either side the cut keeping seven wins (0.695
    // against 0.672), so the threshold moves down to 0.35.
    const scores = [0.9, 0.8, 0.7, 0.6, 0.55, 0.5, 0.4, 0.3, 0.29, 0.28, 0.27, 0.26, 0.25, 0.24]
    const labels = scores.map((_, i) => [0, 3, 4, 5].includes(i))
    expect(bestThreshold(scores, labels)).toBeCloseTo(0.45)
    expect(bestThreshold(scores, labels, 0.99, 2)).toBeCloseTo(0.35)
  })
})

/** A synthetic corpus: category 0 is present exactly in the documents with a "w:escrow" sentence. */
function syntheticCorpus() {
  const docs = Array.from({ length: 40 }, (_, i) => {
    const has = i % 2 === 0
    const features = [
      ['w:the', 'w:parties', `w:filler${i % 5}`],
      has ? ['w:escrow', 'w:agent', 'w:the'] : ['w:notice', 'w:the'],
      ['w:governing', 'w:law'],
    ]
    return { features, positives: [new Set(has ? [1] : [])], present: [has] }
  })
  return encodeCorpus(docs)
}

describe('trainClauseModel', () => {
  const options = {
    ...DEFAULT_TRAIN_OPTIONS,
    epochs: 4,
    minDocFreq: 1,
    thresholdFolds: 4,
    averagedFeaturesPerCategory: 5,
  }

  it('learns the telling feature, keeps the budget and chooses a threshold in range', () => {
    const corpus = syntheticCorpus()
    const model = trainClauseModel(corpus, [...corpus.docs.keys()], ['Escrow'], options)
    const category = model.categories[0]!
    const strongest = Object.entries(category.weights).sort((a, b) => b[1] - a[1])[0]
    expect(strongest?.[0]).toBe('w:escrow')
    expect(Object.keys(category.weights).length).toBeLessThanOrEqual(5)
    expect(category.threshold).toBeGreaterThanOrEqual(options.minThreshold)
    expect(category.threshold).toBeLessThanOrEqual(0.99 * (1 + options.secondSentenceWeight))
  })

  it('gives the same model for the same inputs (seeded)', () => {
    const corpus = syntheticCorpus()
    const docs = [...corpus.docs.keys()]
    const first = trainClauseModel(corpus, docs, ['Escrow'], options)
    expect(JSON.stringify(trainClauseModel(corpus, docs, ['Escrow'], options))).toBe(
      JSON.stringify(first),
    )
  })
})

describe('citeThresholds', () => {
  /**
   * `count` held-out contracts with one category reported: sentence 0 is labelled (p 0.9), sentence
   * 1 scores `second` and is labelled when `secondLabelled`, sentence 2 scores 0.1 unlabelled, and
   * sentence 3, a heading (not citable), scores 0.95.
   */
  function held(count: number, second: number, secondLabelled: boolean) {
    const [doc] = encodeCorpus([
      {
        features: [['w:a'], ['w:b'], ['w:c'], ['w:d']],
        positives: [new Set(secondLabelled ? [0, 1] : [0])],
        present: [true],
        citable: [true, true, true, false],
      },
    ]).docs
    return Array.from({ length: count }, () => ({
      doc,
      columns: [Float64Array.from([0.9, second, 0.1, 0.95])],
      reported: [true],
    }))
  }
  const options = { citeMinDocs: 5, citeWindow: 0 }

  it('keeps a second sentence out when second sentences are wrong, and lets it in when they are right', () => {
    const [strict] = citeThresholds(held(10, 0.6, false), 1, options)
    expect(strict).toBeGreaterThan(0.6)
    const [loose] = citeThresholds(held(10, 0.6, true), 1, options)
    expect(loose).toBeLessThanOrEqual(0.6)
    expect(loose).toBeGreaterThan(0.1)
  })

  it('counts a passage of two sentences as found once, so its second sentence does not buy a wrong quote', () => {
    // Sentences 0 and 1 are one labelled passage (0.9 and 0.5); sentence 2 is wrong (0.55). Quoting
    // down to 0.5 finds no passage more than quoting the best alone, and quotes a wrong sentence.
    const [doc] = encodeCorpus([
      {
        features: [['w:a'], ['w:b'], ['w:c']],
        positives: [new Set([0, 1])],
        present: [true],
      },
    ]).docs
    const rows = Array.from({ length: 10 }, () => ({
      doc,
      columns: [Float64Array.from([0.9, 0.5, 0.55])],
      reported: [true],
    }))
    const [cut] = citeThresholds(rows, 1, options)
    expect(cut).toBeGreaterThan(0.55)
  })

  it('gives a category seen in too few contracts the cut pooled over all categories', () => {
    const few = held(2, 0.6, true)
    const many = held(20, 0.6, false)
    const rows = [...few, ...many].map((row, i) => ({
      doc: row.doc && {
        ...row.doc,
        positives:
          i < 2
            ? [row.doc.positives[0]!, new Set<number>()]
            : [new Set<number>(), row.doc.positives[0]!],
        present: i < 2 ? [true, false] : [false, true],
      },
      columns:
        i < 2 ? [row.columns[0]!, new Float64Array(4)] : [new Float64Array(4), row.columns[0]!],
      reported: i < 2 ? [true, false] : [false, true],
    }))
    const [rare, common] = citeThresholds(rows, 2, options)
    expect(common).toBeGreaterThan(0.6)
    expect(rare).toBe(common)
  })
})

describe('quotingPolicy', () => {
  /** `count` contracts of one reported category over five citable sentences with `scores`. */
  function rows(count: number, scores: number[], labelled: number[]) {
    const [doc] = encodeCorpus([
      {
        features: scores.map((_, s) => [`w:${s}`]),
        positives: [new Set(labelled)],
        present: [true],
      },
    ]).docs
    return Array.from({ length: count }, () => ({
      doc,
      columns: [Float64Array.from(scores)],
      reported: [true],
    }))
  }

  it('lifts a 0.02 cite threshold with a floor when weak further quotes are wrong (cite-floor failure)', () => {
    // The best sentence is the clause; the others score 0.05-0.15 and are never labelled.
    const held = rows(20, [0.9, 0.15, 0.1, 0.05, 0.05], [0])
    const { citeFloor } = quotingPolicy(held, [0.02])
    expect(citeFloor).toBeGreaterThan(0.15)
  })

  it('extends quotes over a clause that runs on into the next sentence (cited-neighbour failure)', () => {
    // Labelled passage: sentences 1-2; the model's best is sentence 2, sentence 1 scores 0.35.
    const held = rows(20, [0.02, 0.35, 0.9, 0.03, 0.02], [1, 2])
    expect(quotingPolicy(held, [0.5]).extendThreshold).toBeUndefined()
    const neighbour = rows(20, [0.02, 0.35, 0.9, 0.03, 0.02], [1])
    // Only the neighbour is labelled: quoting sentence 2 alone is wrong, extending finds it.
    const { extendThreshold } = quotingPolicy(neighbour, [0.5])
    expect(extendThreshold).toBeDefined()
    expect(extendThreshold).toBeLessThanOrEqual(0.35)
    expect(extendThreshold).toBeGreaterThan(0.03)
  })

  it('keeps quotes under the quote-precision floor out of the choice (wide-quote failure)', () => {
    // 30 contracts: the best sentence alone is the clause; its neighbours score 0.4, unlabelled.
    // 10 contracts: the labelled passage is the neighbour before the best. Extending by one
    // sentence grounds every quote and finds every passage (F1 1 against 0.75), but only a third
    // of what it quotes is labelled; quoting single sentences keeps 0.75 of it.
    const held = [
      ...rows(30, [0.02, 0.4, 0.9, 0.4, 0.02], [2]),
      ...rows(10, [0.02, 0.4, 0.9, 0.4, 0.02], [1]),
    ]
    const open = quotingPolicy(held, [0.95])
    expect(open.extendThreshold).toBeDefined()
    const floored = quotingPolicy(held, [0.95], 0.6)
    expect(floored.extendThreshold).toBeUndefined()
    const chosen = floored.settings.find(
      (row) => row.extendThreshold === undefined && row.citeFloor === floored.citeFloor,
    )
    expect(chosen?.precision).toBeCloseTo(0.75)
  })

  it('counts quote precision in characters: a long unlabelled neighbour costs more than a short one', () => {
    const [doc] = encodeCorpus([
      {
        features: [['w:0'], ['w:1'], ['w:2']],
        positives: [new Set([1])],
        present: [true],
        spans: [
          { start: 0, end: 90 },
          { start: 90, end: 100 },
          { start: 100, end: 110 },
        ],
        insideChars: [[0, 10, 0]],
      },
    ]).docs
    const held = [{ doc, columns: [Float64Array.from([0.5, 0.9, 0.02])], reported: [true] }]
    const { settings } = quotingPolicy(held, [0.95])
    const extended = settings.find((row) => row.extendThreshold === 0.5 && row.citeFloor === 0)
    // The quote runs over sentences 0-1: 100 characters, 10 of them labelled.
    expect(extended?.precision).toBeCloseTo(0.1)
    expect(extended?.grounding).toBe(1)
  })
})

describe('fitPresenceModel (decision 0139)', () => {
  /**
   * Held-out sentence scores of 60 contracts, one category: the contracts that have it carry the
   * clause over three sentences scoring 0.6 each; those that lack it have one lucky sentence at
   * 0.9 (a passing mention) and nothing else. Every sentence is operative.
   */
  function lucky() {
    const rows = Array.from({ length: 60 }, (_, i) => {
      const present = i % 2 === 0
      const column = present
        ? [0.6, 0.6, 0.6, 0.02, 0.02, 0.02]
        : [0.02, 0.9, 0.02, 0.02, 0.02, 0.02]
      const [doc] = encodeCorpus([
        {
          features: column.map((_, s) => [`w:${s}`]),
          positives: [new Set(present ? [0, 1, 2] : [])],
          present: [present],
        },
      ]).docs
      return { doc, columns: [Float64Array.from(column)], present }
    })
    return rows
  }
  const options = {
    seed: 7,
    thresholdWindow: 0,
    presenceShrink: 10,
    presencePooledWindow: 0,
  }

  it('does not report a lone lucky sentence that the best-two score ranks above a real clause (presence false-positive failure)', () => {
    const rows = lucky()
    const labels = rows.map((row) => row.present)
    // The document score of decision 0113 (best + half the second): 0.91 for a lucky sentence,
    // 0.9 for a clause of three sentences at 0.6, so its best cut reports every contract.
    const bestTwo = rows.map((row) => documentScore(0.5, row.columns[0] ?? []))
    const { threshold } = thresholdChoice(bestTwo, labels, 1.5, 0)
    const wrong = rows.filter((row, i) => !row.present && (bestTwo[i] ?? 0) >= threshold)
    expect(wrong.length).toBe(30)
    const model = fitPresenceModel(rows, 1, options)
    const decided = model.reported.map((row) => row[0])
    expect(decided).toEqual(labels)
  })

  it("pulls a category's cut towards the pooled one by presenceShrink", () => {
    const rows = lucky().map((row, i) => {
      // A second category present in a third of the contracts, scored as its labels say.
      const second = i % 3 === 0
      const [doc] = encodeCorpus([
        {
          features: [['w:a'], ['w:b'], ['w:c'], ['w:d'], ['w:e'], ['w:f']],
          positives: [new Set(row.present ? [0, 1, 2] : []), new Set(second ? [0] : [])],
          present: [row.present, second],
        },
      ]).docs
      const column = Float64Array.from([second ? 0.8 : 0.05, 0.05, 0.05, 0.05, 0.05, 0.05])
      return { doc, columns: [row.columns[0] ?? new Float64Array(6), column] }
    })
    const own = fitPresenceModel(rows, 2, { ...options, presenceShrink: 0 })
    const pooled = fitPresenceModel(rows, 2, { ...options, presenceShrink: 1e9 })
    expect(own.thresholds[0]).not.toBeCloseTo(own.thresholds[1] ?? 0, 3)
    expect(pooled.thresholds[0]).toBeCloseTo(pooled.thresholds[1] ?? 0, 6)
    const shrunk = fitPresenceModel(rows, 2, options)
    for (const c of [0, 1]) {
      const low = Math.min(own.thresholds[c] ?? 0, pooled.thresholds[c] ?? 0)
      const high = Math.max(own.thresholds[c] ?? 0, pooled.thresholds[c] ?? 0)
      expect(shrunk.thresholds[c]).toBeGreaterThanOrEqual(low - 1e-9)
      expect(shrunk.thresholds[c]).toBeLessThanOrEqual(high + 1e-9)
    }
    // The stored model has one slope per presence feature and an intercept per category.
    expect(shrunk.weights).toHaveLength(11)
    expect(shrunk.biases).toHaveLength(2)
  })
})

describe('corpusFromContracts', () => {
  it('takes every piece of a passage CUAD joined with <omitted> as labelled characters', () => {
    const content =
      'The Supplier shall not compete in France. The price is ten euros. The Supplier shall not solicit staff.'
    const contract = {
      name: 'two-pieces',
      content,
      clauses: new Map([
        [
          'Non-Compete',
          ['The Supplier shall not compete in France. <omitted> shall not solicit staff.'],
        ],
      ]),
      governingLawAnswer: '',
      answers: new Map<string, string>(),
    }
    const { corpus, missingQuotes } = corpusFromContracts([contract], ['Non-Compete'])
    const doc = corpus.docs[0]
    expect(missingQuotes).toBe(0)
    expect([...(doc?.positives[0] ?? [])]).toEqual([0, 2])
    // Before decision 0144 the joined string was searched whole: no character counted inside.
    expect([...(doc?.insideChars[0] ?? [])]).toEqual([
      'The Supplier shall not compete in France.'.length,
      0,
      'shall not solicit staff.'.length,
    ])
  })
})
