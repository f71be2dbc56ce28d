/** Test documents made on the fly: a text-layer PDF (pdf-lib), a scanned-like PDF, a DOCX (docx). */
import { deflateSync } from 'node:zlib'
import { PDFDocument, PDFName, StandardFonts, rgb } from 'pdf-lib'
import { Document, Packer, Paragraph } from 'docx'

/** A sample services agreement written for the tests (not from any fixture). */
export const SAMPLE_CONTRACT = `MASTER SERVICES AGREEMENT

This Master Services Agreement (the "Agreement") is entered into as of March 3, 2021 by and between Northwind Analytics, Inc., a Delaware corporation ("Provider"), and Contoso Legal LLP, a New York limited liability partnership ("Client").

1. Services. Provider shall provide the services described in each statement of work.

2. Term and Renewal. This Agreement shall commence on the Effective Date and continue for one (1) year. This Agreement shall automatically renew for successive one (1) year terms unless either party gives written notice of non-renewal at least thirty (30) days before the end of the then-current term.

3. Termination for Convenience. Provider may terminate this Agreement at any time for any reason upon thirty (30) days prior written notice to Client.

4. Assignment. Neither party may assign this Agreement without the prior written consent of the other party, except that Provider may assign this Agreement in connection with a merger, acquisition or change of control.

5. Indemnification. Client shall indemnify, defend and hold harmless Provider from and against any and all claims, losses, damages and expenses arising out of or relating to this Agreement.

6. Exclusivity. During the term, Client shall purchase such services exclusively from Provider and shall not engage any competitor of Provider.

7. Governing Law. This Agreement shall be governed by and construed in accordance with the laws of the State of New York, without regard to its conflict of laws principles.

8. Confidentiality. Each party shall keep the other party's Confidential Information confidential.
`

/** A one-page-per-chunk PDF whose text layer holds `text`. */
export async function makePdf(text: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create()
  const font = await pdf.embedFont(StandardFonts.Helvetica)
  const lines = text.split('\n').flatMap((line) => line.match(/.{1,90}(\s|$)|\S+/g) ?? [''])
  for (let i = 0; i < lines.length; i += 45) {
    const page = pdf.addPage([612, 792])
    lines.slice(i, i + 45).forEach((line, j) => {
      page.drawText(line.trimEnd(), { x: 40, y: 750 - j * 15, size: 10, font })
    })
  }
  return pdf.save()
}

/** A PDF with only a drawn shape: no text layer, like a scan. */
export async function makeScannedPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create()
  const page = pdf.addPage([612, 792])
  page.drawRectangle({ x: 50, y: 50, width: 500, height: 600, color: rgb(0.8, 0.8, 0.8) })
  return pdf.save()
}

/** A DOCX with one paragraph per line of `text`. */
export async function makeDocx(text: string): Promise<Uint8Array> {
  const doc = new Document({
    sections: [{ children: text.split('\n').map((line) => new Paragraph(line)) }],
  })
  return new Uint8Array(await Packer.toBuffer(doc))
}

/**
 * `pdf` grown by `bytes` of junk after its end (as a scanner's trailing bytes), then a second end
 * pointing at its own cross-reference table, which readers look for last: a large file that
 * reads as the small one.
 */
export function paddedPdf(pdf: Uint8Array, bytes: number): Buffer {
  const original = Buffer.from(pdf)
  const match = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(original.toString('latin1'))
  if (!match) throw new Error('paddedPdf: no startxref at the end of the PDF')
  return Buffer.concat([
    original,
    Buffer.from('\n%'),
    Buffer.alloc(bytes, 'x'),
    Buffer.from(`\nstartxref\n${match[1]}\n%%EOF\n`),
  ])
}

/** A multipart body for `app.inject`. */
export function uploadForm(
  bytes: Uint8Array,
  fileName: string,
  fields: Record<string, string> = {},
): FormData {
  const form = new FormData()
  for (const [key, value] of Object.entries(fields)) form.append(key, value)
  form.append('file', new Blob([bytes as Uint8Array<ArrayBuffer>]), fileName)
  return form
}

/** A PDF of `pages` blank pages (tests the page limit without any text to read). */
export async function makeBlankPdf(pages: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create()
  for (let i = 0; i < pages; i += 1) pdf.addPage([612, 792])
  return pdf.save()
}

/**
 * A small PDF whose one page has a Flate-compressed content stream that inflates to
 * `inflatedMb` MiB of text-drawing operators: a decompression bomb for the extractor.
 */
export async function makeCompressedBombPdf(inflatedMb: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create()
  const font = await pdf.embedFont(StandardFonts.Helvetica)
  const page = pdf.addPage([612, 792])
  page.drawText('Cover', { x: 40, y: 750, size: 10, font })
  const fontName = page.node.normalizedEntries().Font.keys()[0]?.asString() ?? '/F1'
  const line = Buffer.from(`BT ${fontName} 10 Tf 40 700 Td (bomb bomb bomb bomb bomb bomb) Tj ET\n`)
  const inflated = Buffer.alloc(inflatedMb * 1024 * 1024)
  for (let at = 0; at < inflated.length; at += line.length) line.copy(inflated, at)
  const stream = pdf.context.stream(deflateSync(inflated, { level: 9 }), { Filter: 'FlateDecode' })
  page.node.set(PDFName.of('Contents'), pdf.context.register(stream))
  return pdf.save()
}
