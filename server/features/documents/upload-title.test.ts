import { PDFDocument, StandardFonts } from 'pdf-lib'
import { describe, expect, it } from 'vitest'
import { extractDocumentText } from './extract-text'
import { headingTitle, uploadTitle } from './upload-title'

const LIMITS = { maxPdfPages: 10 }

/** A one-page PDF drawing `lines`, with `title` in its information dictionary when given. */
async function pdfWith(lines: string[], title?: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create()
  const font = await pdf.embedFont(StandardFonts.Helvetica)
  const page = pdf.addPage([612, 792])
  lines.forEach((line, i) => page.drawText(line, { x: 40, y: 750 - i * 15, size: 10, font }))
  if (title !== undefined) pdf.setTitle(title)
  return pdf.save()
}

/** The title an upload of `bytes` named `fileName` gets, through the real extractor. */
async function titleOfUpload(bytes: Uint8Array, fileName: string, given?: string) {
  const extracted = await extractDocumentText(bytes, fileName, LIMITS)
  return uploadTitle({ given, fileName, extracted })
}

describe("an uploaded PDF's title", () => {
  it("is the PDF's metadata title when it has one", async () => {
    const bytes = await pdfWith(['MUTUAL NON-DISCLOSURE AGREEMENT', 'This agreement…'], 'Acme NDA')
    expect(await titleOfUpload(bytes, 'scan_0001.pdf')).toBe('Acme NDA')
  })

  it.each([
    'about:blank',
    'https://portal.example/contracts/view?id=7',
    'file:///C:/Users/kim/Downloads/nda.pdf',
    'C:\\Scans\\0001',
    'scan_0001',
    'IMG_20240301_1200',
    '2024-03-01 10:12',
    'Untitled',
    'Title',
  ])('skips the metadata title %j, which is no title, for the heading line', async (metadata) => {
    const lines = ['MUTUAL NON-DISCLOSURE AGREEMENT', 'This agreement is made on 1 March 2024.']
    expect(await titleOfUpload(await pdfWith(lines, metadata), 'nda.pdf')).toBe(
      'MUTUAL NON-DISCLOSURE AGREEMENT',
    )
  })

  it('is its first heading-like line when the metadata has no title (or a blank one)', async () => {
    const lines = ['', 'MASTER SERVICES AGREEMENT', 'This Agreement is made on 1 March 2024.']
    expect(await titleOfUpload(await pdfWith(lines), 'scan_0001.pdf')).toBe(
      'MASTER SERVICES AGREEMENT',
    )
    expect(await titleOfUpload(await pdfWith(lines, '   '), 'scan_0001.pdf')).toBe(
      'MASTER SERVICES AGREEMENT',
    )
  })

  it('is the file name without its extension when no line looks like a heading', async () => {
    const bytes = await pdfWith([
      'the parties agree that the supplier shall deliver the goods on time,',
      'and that payment is due within thirty days of the invoice.',
    ])
    expect(await titleOfUpload(bytes, 'Acme supply terms.pdf')).toBe('Acme supply terms')
  })

  it("keeps a title typed in the upload form over the PDF's own", async () => {
    const bytes = await pdfWith(['LEASE'], 'Metadata title')
    expect(await titleOfUpload(bytes, 'lease.pdf', '  Office lease\n2024 ')).toBe(
      'Office lease 2024',
    )
  })

  it('cleans a metadata title to one line and cuts it at 300 characters', async () => {
    const bytes = await pdfWith(['x'], `Long\u202E\ttitle ${'a'.repeat(400)}`)
    const title = await titleOfUpload(bytes, 'long.pdf')
    expect(title).toMatch(/^Long title a+$/)
    expect(title).toHaveLength(300)
  })

  it('keeps the file name of a text or DOCX file, whose first line is not read as a title', async () => {
    const text = new TextEncoder().encode('MEMORANDUM\nPlease review.')
    expect(await titleOfUpload(text, 'review-note.txt')).toBe('review-note')
  })
})

describe('headingTitle', () => {
  it.each([
    ['MASTER SERVICES AGREEMENT\nThis Agreement…', 'MASTER SERVICES AGREEMENT'],
    ['\n\n  Non-Disclosure Agreement  \nBetween the parties', 'Non-Disclosure Agreement'],
    ['Page 1 of 3\nLease of Office Premises\nThe landlord lets…', 'Lease of Office Premises'],
    ['Dated 1 March 2024\n', null],
    ['the supplier shall deliver the goods.\nMore text', null],
    ['12345\n----\n', null],
    ['', null],
  ])('reads %j as %j', (text, expected) => {
    expect(headingTitle(text)).toBe(expected)
  })

  it('looks only at the first few lines', () => {
    expect(headingTitle(`${'some running text here.\n'.repeat(6)}SCHEDULE A`)).toBeNull()
  })
})
