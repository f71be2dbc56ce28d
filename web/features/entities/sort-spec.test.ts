import { describe, expect, it } from 'vitest'
import { MAX_SORT_TERMS, sortParam, toggleSort, type SortTerm } from './sort-spec'

describe('toggleSort', () => {
  it('cycles a column: unsorted → ascending (placed first) → descending → removed', () => {
    const start: SortTerm[] = [{ key: 'name', dir: 'asc' }]
    const once = toggleSort(start, 'type')
    expect(once).toEqual([
      { key: 'type', dir: 'asc' },
      { key: 'name', dir: 'asc' },
    ])
    const twice = toggleSort(once, 'type')
    expect(twice).toEqual([
      { key: 'type', dir: 'desc' },
      { key: 'name', dir: 'asc' },
    ])
    expect(toggleSort(twice, 'type')).toEqual([{ key: 'name', dir: 'asc' }])
  })

  it('sorts by at most five columns: a sixth pushes out the least significant one', () => {
    let sort: SortTerm[] = []
    for (const key of ['a', 'b', 'c', 'd', 'e', 'f']) sort = toggleSort(sort, `data.${key}`)
    expect(sort.map((t) => t.key)).toEqual(['data.f', 'data.e', 'data.d', 'data.c', 'data.b'])
    expect(sort).toHaveLength(MAX_SORT_TERMS)
  })

  it('keeps a column in its place when it turns descending', () => {
    const sort: SortTerm[] = [
      { key: 'type', dir: 'asc' },
      { key: 'name', dir: 'asc' },
    ]
    expect(toggleSort(sort, 'name')).toEqual([
      { key: 'type', dir: 'asc' },
      { key: 'name', dir: 'desc' },
    ])
  })

  it('falls back to created_at descending when no column is left', () => {
    expect(sortParam(toggleSort(toggleSort(toggleSort([], 'name'), 'name'), 'name'))).toBe(
      'created_at:desc',
    )
    expect(
      sortParam([
        { key: 'data.rank', dir: 'asc' },
        { key: 'name', dir: 'desc' },
      ]),
    ).toBe('data.rank:asc,name:desc')
  })
})
