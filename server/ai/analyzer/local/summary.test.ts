import { describe, expect, it } from 'vitest'
import { RISKY_SERVICES_AGREEMENT, longContract } from '../test-contracts'
import { segmentSentences } from './sentences'
import { summarize } from './summary'

describe('summarize', () => {
  it('picks 3 to 7 sentences in document order whose spans quote the content', () => {
    const content = RISKY_SERVICES_AGREEMENT
    const summary = summarize(content, segmentSentences(content))
    expect(summary.sentences.length).toBeGreaterThanOrEqual(3)
    expect(summary.sentences.length).toBeLessThanOrEqual(7)
    const starts = summary.sentences.map((s) => s.start)
    expect(starts).toEqual([...starts].sort((a, b) => a - b))
    for (const s of summary.sentences) expect(content.slice(s.start, s.end)).toBe(s.text)
    expect(summary.text).toContain(summary.sentences[0]?.text.replace(/\s+/g, ' ') ?? '<none>')
  })

  it('prefers central sentences to headings', () => {
    const content = RISKY_SERVICES_AGREEMENT
    const summary = summarize(content, segmentSentences(content))
    expect(summary.sentences.some((s) => s.text === 'MASTER SERVICES AGREEMENT')).toBe(false)
  })

  it('summarises a 300k-character contract quickly', () => {
    const content = longContract(300_000)
    const sentences = segmentSentences(content)
    const started = performance.now()
    const summary = summarize(content, sentences)
    expect(performance.now() - started).toBeLessThan(1_000)
    expect(summary.sentences).toHaveLength(7)
  })

  it('returns an empty summary for empty content', () => {
    expect(summarize('', [])).toEqual({ text: '', sentences: [] })
  })
})
