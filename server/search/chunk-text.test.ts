import { describe, expect, it } from 'vitest'
import { isWellFormed } from '../test/well-formed'
import { chunkText } from './chunk-text'

const sentence = (i: number) => `Clause ${i} says the Supplier shall deliver item ${i} on time.`

describe('chunkText', () => {
  it('cuts whole sentences into passages whose offsets give back their text', () => {
    const content = Array.from({ length: 40 }, (_, i) => sentence(i)).join(' ')
    const chunks = chunkText(content)
    expect(chunks.length).toBeGreaterThan(3)
    for (const chunk of chunks) {
      expect(content.slice(chunk.start, chunk.end)).toBe(chunk.text)
      expect(chunk.text.length).toBeLessThanOrEqual(700)
      expect(chunk.text).toMatch(/^Clause \d+ .*on time\.$/)
    }
    expect(chunks.map((c) => c.text).join(' ')).toBe(content)
  })

  it('cuts a sentence longer than the maximum at spaces, dropping nothing but whitespace', () => {
    const content = `  ${'word '.repeat(400)}end`
    const chunks = chunkText(content)
    expect(chunks.length).toBeGreaterThan(2)
    expect(chunks.every((c) => c.text.length <= 700)).toBe(true)
    expect(chunks.map((c) => c.text).join(' ')).toBe(content.trim().replace(/\s+/g, ' '))
  })

  it('never cuts a long run without spaces inside a character of two code units (an emoji)', () => {
    for (const lead of ['', 'a', 'Termination notice ']) {
      const content = `${lead}${'😀'.repeat(400)}. The rest.`
      const chunks = chunkText(content)
      expect(chunks.length).toBeGreaterThan(1)
      for (const chunk of chunks) {
        expect(isWellFormed(chunk.text)).toBe(true)
        expect(content.slice(chunk.start, chunk.end)).toBe(chunk.text)
      }
    }
  })

  it('returns no passage for blank text', () => {
    expect(chunkText(' \n\n ')).toEqual([])
  })
})

describe('chunkText paragraphs', () => {
  it('ends a passage at a paragraph of 150 characters or more, joining shorter ones', () => {
    const long = `The Receiving Party shall promptly return or destroy all copies, notes and summaries of the Confidential Information and certify it in writing.`
    const content = `Heading\n\n${long}\n\n${long}`
    expect(chunkText(content).map((c) => c.text)).toEqual([`Heading\n\n${long}`, long])
  })
})
