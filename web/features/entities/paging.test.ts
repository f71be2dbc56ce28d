import { describe, expect, it } from 'vitest'
import { clampPage, lastPageOf } from './paging'

describe('paging', () => {
  it('counts at least one page', () => {
    expect(lastPageOf(0, 50)).toBe(1)
    expect(lastPageOf(50, 50)).toBe(1)
    expect(lastPageOf(51, 50)).toBe(2)
    expect(lastPageOf(1000, 25)).toBe(40)
  })

  it('clamps a page number to 1..last page', () => {
    expect(clampPage(0, 4)).toBe(1)
    expect(clampPage(-3, 4)).toBe(1)
    expect(clampPage(9, 4)).toBe(4)
    expect(clampPage(2.7, 4)).toBe(2)
    expect(clampPage(Number.NaN, 4)).toBe(1)
    expect(clampPage(3, 0)).toBe(1)
  })
})
