import { describe, expect, it } from 'vitest'
import { documentAnchor, locateQuote } from './citations'

describe('locateQuote', () => {
  it('matches exactly first, then ignoring whitespace, else null', () => {
    const content = 'Alpha  beta\r\ngamma. Alpha beta gamma.'
    expect(locateQuote(content, 'Alpha beta gamma')).toEqual({ start: 20, end: 36 })
    expect(locateQuote(content.slice(0, 19), 'Alpha beta gamma')).toEqual({ start: 0, end: 18 })
    expect(locateQuote(content, 'delta')).toBeNull()
    expect(locateQuote(content, '   ')).toBeNull()
  })
})

describe('documentAnchor', () => {
  it('anchors documentAnchor on the first line with a letter, trimmed', () => {
    const content = '\r\n  --- \r\n  Exhibit 10.1 \r\nMore text'
    const span = documentAnchor(content)
    expect(content.slice(span.start, span.end)).toBe('Exhibit 10.1')
    expect(documentAnchor('')).toEqual({ start: 0, end: 0 })
  })
})
