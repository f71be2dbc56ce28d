import { describe, expect, it } from 'vitest'
import {
  compileClauseModel,
  documentScore,
  PRESENCE_FEATURES,
  presenceFeatures,
  presenceProbability,
  scoreSentences,
} from './clause-model'

describe('documentScore', () => {
  it('is the best probability when the second sentence has no weight', () => {
    expect(documentScore(0, [0.2, 0.9, 0.4])).toBe(0.9)
  })

  it('adds the weighted second-best probability', () => {
    expect(documentScore(0.5, [0.4, 0.2, 0.8])).toBeCloseTo(0.8 + 0.5 * 0.4)
  })

  it('is 0 for a document without sentences', () => {
    expect(documentScore(0.5, [])).toBe(0)
  })
})

describe('compileClauseModel', () => {
  it('treats a model without secondSentenceWeight as best-sentence-only and scores by weights', () => {
    const model = compileClauseModel({
      version: 1,
      description: 'test',
      categories: [{ name: 'Insurance', bias: 0, threshold: 0.5, weights: { 'w:insurance': 2 } }],
    })
    expect(model.secondSentenceWeight).toBe(0)
    const [hit, miss] = scoreSentences(model, [['w:insurance'], ['w:price']])
    expect(hit?.[0]).toBeCloseTo(1 / (1 + Math.exp(-2)))
    expect(miss?.[0]).toBe(0.5)
  })
})

describe('presenceFeatures', () => {
  const logit = (p: number) => Math.log(p / (1 - p))

  it('aggregates the three best, the best operative and heading sentences, counts and position', () => {
    // Sentence 0 is a heading (0.9), 1 and 3 operative (0.6, 0.3), 2 a definition (0.1).
    const features = presenceFeatures(
      [0.9, 0.6, 0.1, 0.3],
      (s) => s === 1 || s === 3,
      (s) => s === 0,
    )
    expect(features).toHaveLength(PRESENCE_FEATURES.length)
    const expected = [
      1,
      logit(0.9),
      logit(0.6),
      logit(0.3),
      logit(0.6),
      logit(0.9),
      Math.log1p(2),
      Math.log1p(3),
      Math.log1p(4),
      0,
      0,
    ]
    features.forEach((value, j) => expect(value).toBeCloseTo(expected[j] ?? NaN, 9))
  })

  it('stays finite for an empty document and for probabilities of 0 and 1', () => {
    expect(
      presenceFeatures(
        [],
        () => true,
        () => false,
      ).every(Number.isFinite),
    ).toBe(true)
    expect(
      presenceFeatures(
        [1, 0],
        () => true,
        () => true,
      ).every(Number.isFinite),
    ).toBe(true)
  })

  it('adds the category intercept to the shared slopes', () => {
    expect(presenceProbability([0, 2], -2, [1, 1])).toBeCloseTo(0.5)
  })
})
