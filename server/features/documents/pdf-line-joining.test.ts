import { PDFDocument, StandardFonts } from 'pdf-lib'
import { describe, expect, it } from 'vitest'
import { extractDocumentText } from './extract-text'
import { segmentSentences } from '../../ai/analyzer/local/sentences'

/** A PDF whose pages hold `pages[i]`, one drawn line per entry, each page with a running header and a page-number footer. */
async function linedPdf(pages: readonly (readonly string[])[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create()
  const font = await pdf.embedFont(StandardFonts.Helvetica)
  pages.forEach((lines, index) => {
    const page = pdf.addPage([612, 792])
    page.drawText('MASTER SUPPLY AGREEMENT - CONFIDENTIAL', { x: 72, y: 750, size: 9, font })
    lines.forEach((line, i) => page.drawText(line, { x: 72, y: 700 - i * 16, size: 11, font }))
    page.drawText(`Page ${index + 1} of ${pages.length}`, { x: 280, y: 40, size: 9, font })
  })
  return pdf.save()
}

const LIMITS = { maxPdfPages: 100 }

describe('PDF text joining', () => {
  it('joins a sentence cut by line ends, a hyphenated word and a page break, and drops running headers and footers', async () => {
    const bytes = await linedPdf([
      [
        '1. Supply. Supplier shall deliver the Products to the Buyer in',
        'accordance with the delivery schedule set out in Schedule 1.',
        '2. Limitation of Liability. The aggregate liability of each party under this Agree-',
        'ment shall not exceed the total fees paid by the Buyer in the twelve',
      ],
      ['months preceding the claim.', '3. Term. This Agreement starts on the Effective Date.'],
    ])
    const { text } = await extractDocumentText(bytes, 'supply.pdf', LIMITS)
    expect(text).not.toMatch(/CONFIDENTIAL|Page \d of/)
    const sentences = segmentSentences(text).map((s) => s.text)
    expect(sentences).toContain(
      '2. Limitation of Liability. The aggregate liability of each party under this Agreement shall not exceed the total fees paid by the Buyer in the twelve months preceding the claim.',
    )
    expect(sentences).toContain(
      '1. Supply. Supplier shall deliver the Products to the Buyer in accordance with the delivery schedule set out in Schedule 1.',
    )
    expect(sentences).toContain('3. Term. This Agreement starts on the Effective Date.')
  })

  it('keeps headings, numbered provisions and compound hyphens on their own', async () => {
    const bytes = await linedPdf([
      [
        'ARTICLE 4',
        'NON-COMPETITION',
        '4.1 The Distributor accepts a non-',
        'compete covenant for the Territory.',
        '4.2 The Supplier may appoint other distributors.',
      ],
    ])
    const { text } = await extractDocumentText(bytes, 'distribution.pdf', LIMITS)
    expect(text).toContain(
      'ARTICLE 4\nNON-COMPETITION\n4.1 The Distributor accepts a non-compete covenant for the Territory.\n4.2 The Supplier',
    )
  })
})
