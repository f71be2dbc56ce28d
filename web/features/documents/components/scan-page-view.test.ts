import { describe, expect, it } from 'vitest'
import { pageOfOffset } from './scan-page-view'

describe('pageOfOffset', () => {
  it('finds the page whose text holds an offset, page starts included', () => {
    const starts = [0, 120, 400]
    expect(pageOfOffset(starts, 0)).toBe(1)
    expect(pageOfOffset(starts, 119)).toBe(1)
    expect(pageOfOffset(starts, 120)).toBe(2)
    expect(pageOfOffset(starts, 399)).toBe(2)
    expect(pageOfOffset(starts, 5000)).toBe(3)
  })
})
