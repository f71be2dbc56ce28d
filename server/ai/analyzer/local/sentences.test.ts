import { describe, expect, it } from 'vitest'
import { segmentSentences } from './sentences'

const CONTRACT = `MASTER SUPPLY AGREEMENT

This Master Supply Agreement is made by Acme Inc. and Widget Corp., both of the U.S., on Jan. 5, 2020. It is registered as No. 42, e.g. for filing purposes.

1. DEFINITIONS
1.1 "Affiliate" means any entity controlling a party. 1.2 "Product" means the goods in Schedule A.
(a) the first item; and
(b) the second item.
Section 2.3(b) shall apply to all orders. See Section 4 for details.
ARTICLE IV
TERMINATION
4.1 Either party may terminate this Agreement on notice.`

function texts(content: string): string[] {
  return segmentSentences(content).map((s) => s.text)
}

describe('segmentSentences', () => {
  it('quotes every span exactly and trims surrounding whitespace', () => {
    const spans = segmentSentences(`  \n${CONTRACT}\n\n  `)
    const content = `  \n${CONTRACT}\n\n  `
    expect(spans.length).toBeGreaterThan(5)
    for (const span of spans) {
      expect(span.text).toBe(content.slice(span.start, span.end))
      expect(span.text).toBe(span.text.trim())
    }
  })

  it('returns spans in order without overlap', () => {
    const spans = segmentSentences(CONTRACT)
    spans.slice(1).forEach((span, i) => {
      expect(span.start).toBeGreaterThanOrEqual(spans[i]?.end ?? 0)
    })
  })

  it('does not split after company and reference abbreviations', () => {
    expect(texts(CONTRACT)).toContain(
      'This Master Supply Agreement is made by Acme Inc. and Widget Corp., both of the U.S., on Jan. 5, 2020.',
    )
    expect(texts(CONTRACT)).toContain('It is registered as No. 42, e.g. for filing purposes.')
  })

  it('keeps legal numbering with the provision it numbers', () => {
    const result = texts(CONTRACT)
    expect(result).toContain('1.1 "Affiliate" means any entity controlling a party.')
    expect(result).toContain('1.2 "Product" means the goods in Schedule A.')
    expect(result).toContain('Section 2.3(b) shall apply to all orders.')
    expect(result).toContain('4.1 Either party may terminate this Agreement on notice.')
    expect(result).not.toContain('1.')
    expect(result).not.toContain('(b)')
  })

  it('makes blank-line paragraphs and capitalised headings their own passages', () => {
    const result = texts(CONTRACT)
    expect(result[0]).toBe('MASTER SUPPLY AGREEMENT')
    expect(result).toContain('1. DEFINITIONS')
    expect(result).toContain('ARTICLE IV')
    expect(result).toContain('TERMINATION')
  })

  it('separates ordinary sentences', () => {
    expect(texts('The Supplier shall deliver. The Buyer shall pay. Both shall cooperate.')).toEqual(
      ['The Supplier shall deliver.', 'The Buyer shall pay.', 'Both shall cooperate.'],
    )
  })

  it('gives nothing for blank or punctuation-only content', () => {
    expect(segmentSentences('')).toEqual([])
    expect(segmentSentences('  \n\n\t ')).toEqual([])
    expect(segmentSentences('* * *\n\n-----')).toEqual([])
  })

  it('segments a 300k-character contract into one span per numbered paragraph', () => {
    const paragraph =
      '12.3 Assignment. Neither party may assign this Agreement without the prior written consent of the other party, which shall not be unreasonably withheld; provided that Acme Inc. may assign it to an Affiliate (as defined in Section 1.1(a)).\n\n'
    const content = paragraph.repeat(Math.ceil(300_000 / paragraph.length))
    const spans = segmentSentences(content)
    expect(spans.length).toBe(Math.ceil(300_000 / paragraph.length))
  })
})
