import { describe, expect, it } from 'vitest'
import { locateQuote } from './citations'

describe('locateQuote', () => {
  it('matches exactly first, then ignoring whitespace, else null', () => {
    const content = 'Alpha  beta\r\ngamma. Alpha beta gamma.'
    expect(locateQuote(content, 'Alpha beta gamma')).toEqual({ start: 20, end: 36 })
    expect(locateQuote(content.slice(0, 19), 'Alpha beta gamma')).toEqual({ start: 0, end: 18 })
    expect(locateQuote(content, 'delta')).toBeNull()
    expect(locateQuote(content, '   ')).toBeNull()
  })
})
