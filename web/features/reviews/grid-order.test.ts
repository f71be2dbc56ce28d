import { describe, expect, it } from 'vitest'
import type { ReviewAnswer, ReviewCell } from './api'
import { orderRows } from './grid-order'

/** A cell of column 'c' answered `answer` (null: not found). */
const cell = (answer: ReviewAnswer | null): ReviewCell =>
  ({
    state: answer ? 'answered' : 'not_found',
    answer,
    override: null,
  }) as ReviewCell

const sortBy = (cells: ReviewCell[], direction: 'ascending' | 'descending' = 'ascending') =>
  orderRows(cells.length, { columnId: 'c', direction }, new Map(), () => cells)

describe('orderRows', () => {
  it('orders money by amount, durations by months and yes before no, unanswered last', () => {
    const money = (amount: number): ReviewAnswer => ({ type: 'money', amount, currency: 'USD' })
    expect(sortBy([money(900), null, money(1500000), money(20)].map(cell))).toEqual([3, 0, 2, 1])
    const months = (n: number): ReviewAnswer => ({
      type: 'duration',
      months: n,
      text: `${n} months`,
    })
    expect(sortBy([months(24), months(6), months(12)].map(cell), 'descending')).toEqual([0, 2, 1])
    const yes = (value: boolean): ReviewAnswer => ({ type: 'yes_no', value })
    expect(sortBy([yes(false), null, yes(true)].map(cell))).toEqual([2, 0, 1])
    expect(sortBy([yes(false), null, yes(true)].map(cell), 'descending')).toEqual([0, 2, 1])
  })

  it('filters by state and by text contained, before sorting', () => {
    const text = (value: string): ReviewAnswer => ({ type: 'text', value })
    const cells = [text('England'), null, text('France'), text('New England')].map(cell)
    const filter = (state: '' | 'not_found', contains: string) =>
      orderRows(4, null, new Map([['c', { state, contains }]]), () => cells)
    expect(filter('', 'ENGLAND')).toEqual([0, 3])
    expect(filter('not_found', '')).toEqual([1])
  })
})
