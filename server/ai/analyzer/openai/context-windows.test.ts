import { describe, expect, it } from 'vitest'
import { contextWindows } from './context-windows'

const TEXT = [
  '1. Term. This Agreement runs for two years.',
  '2. Payment. The Customer pays monthly; late sums bear interest.',
  '3. Law. New York law governs this Agreement.',
].join('\n\n')

describe('contextWindows', () => {
  it('gives the whole text as one part when it fits', () => {
    expect(contextWindows(TEXT, TEXT.length)).toEqual([{ start: 0, text: TEXT }])
  })

  it('cuts a longer text at paragraph breaks into parts that map back by their offset', () => {
    const windows = contextWindows(TEXT, 80)
    expect(windows.map((w) => w.text)).toEqual(TEXT.split('\n\n'))
    for (const w of windows) {
      expect(w.text.length).toBeLessThanOrEqual(80)
      expect(TEXT.slice(w.start, w.start + w.text.length)).toBe(w.text)
    }
  })

  it('cuts a paragraph without breaks at a sentence end, and a word run at the limit', () => {
    const prose = 'One short sentence here. Another sentence follows it. And a third.'
    expect(contextWindows(prose, 40).map((w) => w.text)).toEqual([
      'One short sentence here.',
      'Another sentence follows it.',
      'And a third.',
    ])
    const run = 'x'.repeat(25)
    expect(contextWindows(run, 10).map((w) => w.text)).toEqual([
      'x'.repeat(10),
      'x'.repeat(10),
      'x'.repeat(5),
    ])
  })

  it('gives no part for empty or blank text and refuses a size below one', () => {
    expect(contextWindows('  \n ', 10)).toEqual([])
    expect(() => contextWindows(TEXT, 0)).toThrow(RangeError)
  })
})
