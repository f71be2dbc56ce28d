import { describe, expect, it } from 'vitest'
import { compileClauseModel, documentScore, scoreSentences } from './clause-model'

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
