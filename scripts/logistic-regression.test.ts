import { describe, expect, it } from 'vitest'
import {
  fitLogistic,
  fitSparseLogistic,
  predictLogistic,
  type SparseExample,
  type SparseFitOptions,
} from './logistic-regression'

describe('the answer models’ logistic regression (decision 0130)', () => {
  // y = 1 exactly when x > 5, on a raw scale far from standard (x from 0 to 10).
  const rows = Array.from({ length: 40 }, (_, i) => [1, i / 4])
  const labels = rows.map(([, x]) => (x! > 5 ? 1 : 0))

  it('learns weights that apply to the raw features (the model file holds no scaling)', () => {
    const w = fitLogistic(rows, labels)
    expect(predictLogistic(w, [1, 9])).toBeGreaterThan(0.9)
    expect(predictLogistic(w, [1, 1])).toBeLessThan(0.1)
    // The boundary, -w0 / w1, lies between the classes.
    expect(-w[0]! / w[1]!).toBeGreaterThan(4)
    expect(-w[0]! / w[1]!).toBeLessThan(6)
  })

  it('is deterministic and refuses rows and labels of different lengths', () => {
    expect(fitLogistic(rows, labels)).toEqual(fitLogistic(rows, labels))
    expect(() => fitLogistic(rows, labels.slice(1))).toThrow(/differ in length/)
  })
})

describe('the clause model’s sparse SGD path (decision 0132)', () => {
  // Output 0 fires on feature 0, output 1 on feature 1; feature 2 is noise on every row.
  const examples: SparseExample[] = Array.from({ length: 60 }, (_, i) => {
    const kind = i % 3
    const x = kind === 2 ? [2] : [kind, 2]
    const labels = Uint8Array.from([kind === 0 ? 1 : 0, kind === 1 ? 1 : 0])
    return { x: Int32Array.from(x), scale: 1 / Math.sqrt(x.length), labels, positive: kind < 2 }
  })
  const options: SparseFitOptions = {
    seed: 7,
    epochs: 8,
    settleEpochs: 2,
    learningRate: 0.5,
    l2: 1e-4,
    negativeSampling: 1,
    positiveWeights: [1, 1],
    maxFeaturesPerOutput: 1,
    initialBias: 0,
  }
  const score = (w: Float32Array, b: Float64Array, o: number, x: number[]) =>
    1 / (1 + Math.exp(-(b[o]! + x.reduce((s, f) => s + w[f * 2 + o]! / Math.sqrt(x.length), 0))))

  it('learns each output from its own feature and prunes the rest to maxFeaturesPerOutput', () => {
    const { weights, biases } = fitSparseLogistic(examples, 3, 2, options)
    expect(score(weights, biases, 0, [0, 2])).toBeGreaterThan(0.8)
    expect(score(weights, biases, 0, [1, 2])).toBeLessThan(0.2)
    expect(score(weights, biases, 1, [1, 2])).toBeGreaterThan(0.8)
    // One weight kept per output: output 0 keeps feature 0 only.
    expect([0, 1, 2].filter((f) => weights[f * 2] !== 0)).toEqual([0])
  })

  it('is seeded (same weights on a rerun), starts from the priors given and checks label widths', () => {
    const prior = new Float32Array(6)
    prior[2 * 2 + 1] = 5
    const a = fitSparseLogistic(examples, 3, 2, { ...options, epochs: 0, settleEpochs: 0 }, prior)
    expect(a.weights[2 * 2 + 1]).toBe(5)
    expect(fitSparseLogistic(examples, 3, 2, options)).toEqual(
      fitSparseLogistic(examples, 3, 2, options),
    )
    expect(() => fitSparseLogistic(examples, 3, 3, options)).toThrow(/number of outputs/)
  })
})
