import { describe, expect, it } from 'vitest'
import { fitLogistic, predictLogistic } from './logistic-regression'

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
