import { describe, expect, it } from 'vitest'
import { BUDGETS, brokenBudgets } from '../bench/budgets'

describe('brokenBudgets (npm run bench)', () => {
  const budgets = { ratio: { min: 0.5, why: 'the fast path' }, p99: { max: 100, why: 'latency' } }

  it('names each figure out of its budget, below a floor or above a ceiling', () => {
    expect(brokenBudgets({ ratio: 0.35, p99: 120 }, budgets)).toEqual([
      'ratio: 0.35, below its budget of 0.5 (the fast path)',
      'p99: 120, above its budget of 100 (latency)',
    ])
    expect(brokenBudgets({ ratio: 0.5, p99: 100 }, budgets)).toEqual([])
  })

  it('leaves out the figures a run did not measure', () => {
    expect(brokenBudgets({ p99: null }, budgets)).toEqual([])
  })

  it("holds the list kit's fast path to the list-to-floor ratio of tenant-read", () => {
    expect(brokenBudgets({ list_to_floor_ratio_c50: 0.35 })).toHaveLength(1)
    expect(BUDGETS.list_to_floor_ratio_c50?.min).toBe(0.4)
  })
})
