/**
 * Scanned PDFs made on the spot (issue 26): `textPdf` writes lines of known words as a PDF with a
 * text layer (pdf-lib, Helvetica), and `imageOnlyPdf` turns any PDF into what a scanner makes:
 * each page rendered by Poppler's `pdftoppm` at `dpi` (greyscale PNG) and placed as the only
 * content of a page of the same size, so the result has no text layer at all; `joinPdfs` and
 * `textPdfWithHiddenLine` make PDFs that mix typed and scanned pages. Used by the OCR
 * tests and by `npm run eval:ocr`.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib'

const run = promisify(execFile)

/** A US Letter PDF (612 × 792 pt) per group of `linesPerPage` lines, 14 pt Helvetica. */
export async function textPdf(lines: string[], linesPerPage = 30): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  for (let first = 0; first < lines.length; first += linesPerPage) {
    const page = doc.addPage([612, 792])
    lines.slice(first, first + linesPerPage).forEach((line, index) => {
      page.drawText(line, { x: 54, y: 730 - index * 22, size: 14, font })
    })
  }
  return doc.save()
}

/** `pdf` with every page replaced by its image at `dpi` dots per inch (no text layer). */
export async function imageOnlyPdf(pdf: Uint8Array, dpi = 200): Promise<Uint8Array> {
  const dir = await mkdtemp(path.join(tmpdir(), 'lexdesk-scan-'))
  try {
    await writeFile(path.join(dir, 'in.pdf'), pdf)
    await run('pdftoppm', ['-r', String(dpi), '-gray', '-png', 'in.pdf', 'page'], {
      cwd: dir,
      maxBuffer: 1024 * 1024,
    })
    // pdftoppm pads page numbers to the width of the last one: sorted by name is page order.
    const images = (await readdir(dir)).filter((name) => name.endsWith('.png')).sort()
    const out = await PDFDocument.create()
    for (const name of images) {
      const image = await out.embedPng(await readFile(path.join(dir, name)))
      const page = out.addPage([(image.width * 72) / dpi, (image.height * 72) / dpi])
      page.drawImage(image, { x: 0, y: 0, width: page.getWidth(), height: page.getHeight() })
    }
    return await out.save()
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** The pages of `pdfs` one after the other, as one PDF (a typed contract with a scanned page). */
export async function joinPdfs(pdfs: Uint8Array[]): Promise<Uint8Array> {
  const out = await PDFDocument.create()
  for (const bytes of pdfs) {
    const source = await PDFDocument.load(bytes)
    for (const page of await out.copyPages(source, source.getPageIndices())) out.addPage(page)
  }
  return out.save()
}

/**
 * A US Letter page of `lines` (14 pt Helvetica, as textPdf) and, in white below them, `hidden`:
 * in the text layer, invisible on the page, so a text that holds it was read from the text layer
 * and not by OCR.
 */
export async function textPdfWithHiddenLine(lines: string[], hidden: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  const page = doc.addPage([612, 792])
  lines.forEach((line, index) =>
    page.drawText(line, { x: 54, y: 730 - index * 22, size: 14, font }),
  )
  page.drawText(hidden, { x: 54, y: 60, size: 14, font, color: rgb(1, 1, 1) })
  return doc.save()
}
