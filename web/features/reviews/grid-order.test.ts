import { describe, expect, it } from 'vitest'
import type { ReviewAnswer, ReviewCell } from './api'
import { orderRows } from './grid-order'

/**
 * A cell of column 'c' answered `answer` (null: not found), with the one line the server words it
 * as (`text`; by default a text answer's value, else a placeholder the typed sort must not read).
 */
const cell = (answer: ReviewAnswer | null, text?: string): ReviewCell =>
  ({
    state: answer ? 'answered' : 'not_found',
    answer,
    text: answer ? (text ?? (answer.type === 'text' ? answer.value : '(server text)')) : null,
    override: null,
  }) as ReviewCell

const sortBy = (cells: ReviewCell[], direction: 'ascending' | 'descending' = 'ascending') =>
  orderRows(cells.length, { columnId: 'c', direction }, new Map(), () => cells)

describe('orderRows', () => {
  it('orders money by amount, durations by months and yes before no, unanswered last', () => {
    const money = (amount: number): ReviewAnswer => ({ type: 'money', amount, currency: 'USD' })
    expect(sortBy([money(900), null, money(1500000), money(20)].map((a) => cell(a)))).toEqual([
      3, 0, 2, 1,
    ])
    const months = (n: number): ReviewAnswer => ({
      type: 'duration',
      months: n,
      text: `${n} months`,
    })
    expect(
      sortBy(
        [months(24), months(6), months(12)].map((a) => cell(a)),
        'descending',
      ),
    ).toEqual([0, 2, 1])
    const yes = (value: boolean): ReviewAnswer => ({ type: 'yes_no', value })
    expect(sortBy([yes(false), null, yes(true)].map((a) => cell(a)))).toEqual([2, 0, 1])
    expect(
      sortBy(
        [yes(false), null, yes(true)].map((a) => cell(a)),
        'descending',
      ),
    ).toEqual([0, 2, 1])
  })

  it('filters by state and by text contained, before sorting', () => {
    const text = (value: string): ReviewAnswer => ({ type: 'text', value })
    const cells = [text('England'), null, text('France'), text('New England')].map((a) => cell(a))
    const filter = (state: '' | 'not_found', contains: string) =>
      orderRows(4, null, new Map([['c', { state, contains }]]), () => cells)
    expect(filter('', 'ENGLAND')).toEqual([0, 3])
    expect(filter('not_found', '')).toEqual([1])
  })

  it("filters and sorts untyped answers by the server's text, overrides included", () => {
    const party = (names: string[]): ReviewAnswer => ({ type: 'party', names })
    const cells = [
      cell(party(['Zeta Ltd']), 'Zeta Ltd'),
      cell(party(['Acme Inc', 'Beta LLC']), 'Acme Inc; Beta LLC'),
      {
        ...cell(party(['Omega plc']), 'Omega plc'),
        override: {
          answer: party(['Mid Co']),
          text: 'Mid Co (as worded)',
          note: null,
          by: null,
          at: '',
        },
      },
    ]
    expect(sortBy(cells)).toEqual([1, 2, 0])
    const filter = (contains: string) =>
      orderRows(3, null, new Map([['c', { state: '' as const, contains }]]), () => cells)
    expect(filter('inc; beta')).toEqual([1])
    expect(filter('mid co (as worded)')).toEqual([2])
    expect(filter('omega')).toEqual([])
  })
})
