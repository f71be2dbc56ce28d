import { describe, expect, it } from 'vitest'
import { compareTexts } from './compare-texts'
import { redlineHtml } from './redline-html'

const unescape = (html: string) =>
  html
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')

describe('redlineHtml', () => {
  it('marks insertions, deletions and moves, and escapes every character of the texts', () => {
    const base = [
      '1. Price. Fees are <b>due</b> within 30 days & without set-off.',
      '2. Warranty. The Supplier warrants the Products for twelve months.',
      '3. Notices. Notices shall be in writing and delivered by hand.',
      '4. Audit. The Buyer may audit the records of the Supplier once a year.',
    ].join('\n\n')
    const revised = [
      '1. Price. Fees are <b>due</b> within 60 days & without set-off.',
      '2. Notices. Notices shall be in writing and delivered by hand.',
      '3. Audit. The Buyer may audit the records of the Supplier once a year.',
      '4. Warranty. The Supplier warrants the Products for twelve months.',
    ].join('\n\n')
    const html = redlineHtml(compareTexts(base, revised).segments)
    expect(html).toContain('<del>30</del><ins>60</ins>')
    expect(html).toContain('&lt;b&gt;due&lt;/b&gt;')
    expect(html).toMatch(/<del class="moved-from" data-move="1">[^<]*Warranty/)
    expect(html).toMatch(/<ins class="moved-to" data-move="1">[^<]*Warranty/)
    const accepted = unescape(
      html.replace(/<del[^>]*>[^<]*<\/del>/g, '').replace(/<\/?ins[^>]*>/g, ''),
    )
    const rejected = unescape(
      html.replace(/<ins[^>]*>[^<]*<\/ins>/g, '').replace(/<\/?del[^>]*>/g, ''),
    )
    expect(accepted).toBe(revised)
    expect(rejected).toBe(base)
  })
})
