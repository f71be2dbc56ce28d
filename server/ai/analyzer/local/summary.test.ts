import { describe, expect, it } from 'vitest'
import { RISKY_SERVICES_AGREEMENT, longContract } from '../../../test/test-contracts'
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

  it('never fills a long, repetitive contract summary with the same passage twice', () => {
    const content = longContract(300_000)
    const summary = summarize(content, segmentSentences(content))
    const texts = summary.sentences.map((s) => s.text.toLowerCase().replace(/^[\d.\s]+/, ''))
    expect(texts.length).toBeGreaterThanOrEqual(3)
    expect(new Set(texts).size).toBe(texts.length)
  })

  it('does not repeat boilerplate that recurs throughout a contract', () => {
    const notice =
      'The redacted material has been filed separately with the commission under a confidentiality request.'
    const content = [
      'This Supply Agreement sets the terms on which Vendor sells components to Buyer for its devices.',
      notice,
      'Buyer shall order components by purchase orders that state quantities, prices and delivery dates.',
      notice,
      'Vendor shall deliver the components within thirty days of each purchase order at its own cost.',
      notice,
      'Buyer shall pay each invoice of Vendor within forty-five days of receiving the components ordered.',
      notice,
    ].join('\n\n')
    const summary = summarize(content, segmentSentences(content))
    expect(summary.sentences.filter((s) => s.text === notice).length).toBeLessThanOrEqual(1)
    expect(summary.sentences.length).toBeGreaterThanOrEqual(3)
  })

  it('returns an empty summary for empty content', () => {
    expect(summarize('', [])).toEqual({ text: '', sentences: [] })
  })
})
