/**
 * Text extraction from uploaded files: PDF via unpdf (Mozilla pdf.js), DOCX via mammoth, plain
 * text as strict UTF-8. The type is decided from the file's bytes (magic numbers via file-type),
 * not from its name or the browser's claim, so a mislabelled file cannot slip through.
 * Throws AppError 415 for unsupported types, 400 for corrupt files, 413 for a DOCX that unpacks
 * past DOCX_EXPANSION_LIMITS and for text longer than MAX_DOCUMENT_CHARACTERS.
 */
import { fileTypeFromBuffer } from 'file-type'
import { getDocumentProxy } from 'unpdf'
import mammoth from 'mammoth'
import { AppError } from '../../errors/app-error'
import { checkZipExpansion, DOCX_EXPANSION_LIMITS } from './check-zip-expansion'
import { scannedPages, type PageText } from '../../ai/ocr/scanned-pages'
import { joinPdfPages } from './join-pdf-pages'

export interface ExtractedText {
  /** Extracted text with line endings normalised to \n; '' when the file has no text layer. */
  text: string
  mimeType: string
  /** Pages in a PDF, null for other formats. */
  pages: number | null
  /** A PDF's metadata title (its information dictionary's /Title), raw; null if none or not a PDF. */
  title: string | null
  /**
   * The pages (1-based, ascending) of a PDF that are scans to read by OCR (scanned-pages.ts);
   * empty for a PDF with a full text layer and for other formats.
   */
  scannedPages: number[]
  /**
   * A PDF's text page by page (1 first), each as `text` writes it, trimmed, so the text layer of
   * its typed pages can be merged with the recognised text of its scanned ones; null for other
   * formats.
   */
  pageTexts: string[] | null
}

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
const SUPPORTED = 'Upload a PDF, DOCX or plain-text file.'

/**
 * Normalises CRLF/CR to LF so character offsets are the same whatever produced the file, and drops
 * NUL characters (PDF and DOCX text can contain them; PostgreSQL text cannot).
 */
export function normaliseNewlines(text: string): string {
  return text.replace(/\r\n?/g, '\n').replaceAll('\u0000', '')
}

/**
 * Longest text a document may have: 10,000,000 characters (UTF-16 code units), ten times the
 * longest paste and room for MAX_PDF_PAGES' default 2,000 dense pages of ~5,000 characters. The
 * bound keeps a small file that expands (a DOCX or PDF bomb) from storing hundreds of megabytes
 * of text in the database, whose embedded engine's memory never shrinks, and from indexing it.
 */
export const MAX_DOCUMENT_CHARACTERS = 10_000_000

/** Limits on one extraction. */
export interface ExtractionLimits {
  /** PDFs with more pages are refused with a 413 problem before any page is read. */
  maxPdfPages: number
}

const unreadablePdf = () =>
  new AppError(
    'corrupt_file',
    'The PDF could not be read. It may be corrupt or password-protected.',
  )

/** The /Title of a PDF's information dictionary, or null; a broken dictionary is no title. */
async function pdfMetadataTitle(
  pdf: Awaited<ReturnType<typeof getDocumentProxy>>,
): Promise<string | null> {
  const metadata = await pdf.getMetadata().catch(() => null)
  const title = (metadata?.info as { Title?: unknown } | undefined)?.Title
  return typeof title === 'string' ? title : null
}

async function extractPdf(bytes: Uint8Array, limits: ExtractionLimits): Promise<ExtractedText> {
  // Errors only: pdf.js warns about each font it cannot prepare for drawing while listing a thin
  // page's operators (scanned-pages.ts; on Node 20 it lacks ArrayBuffer#transferToFixedLength),
  // which nothing here draws.
  const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 }).catch(() => {
    throw unreadablePdf()
  })
  // The page count comes from the cross-reference table, so a 20,000-page file is refused at once.
  if (pdf.numPages > limits.maxPdfPages) {
    throw new AppError(
      'too_many_pages',
      `The PDF has ${pdf.numPages.toLocaleString('en')} pages; the limit is ${limits.maxPdfPages.toLocaleString('en')} pages (MAX_PDF_PAGES).`,
    )
  }
  try {
    const pages: PageText[] = []
    for (let n = 1; n <= pdf.numPages; n += 1) {
      const page = await pdf.getPage(n)
      const content = await page.getTextContent()
      const { width, height } = page.getViewport({ scale: 1 })
      // As unpdf reads a page: each item's string, a line break where pdf.js marks a line's end.
      const text = content.items
        .map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : ''))
        .join('')
      pages.push({ text, width, height })
      page.cleanup()
    }
    return {
      // Joined across line and page breaks so that sentence splitting never cuts a clause.
      text: joinPdfPages(pages.map((p) => normaliseNewlines(p.text))),
      mimeType: 'application/pdf',
      pages: pdf.numPages,
      title: await pdfMetadataTitle(pdf),
      scannedPages: await scannedPages(pdf, pages),
      pageTexts: pages.map((p) => normaliseNewlines(mergePageTexts([p.text])).trim()),
    }
  } catch {
    throw unreadablePdf()
  } finally {
    await pdf.destroy()
  }
}

/**
 * The pages' texts as one, as unpdf's `extractText(…, { mergePages: true })` joins them (one line
 * break between pages, runs of spaces made one, at most one empty line), so a typed PDF's text
 * and offsets are what they were before pages were read one by one.
 */
function mergePageTexts(texts: string[]): string {
  return texts
    .join('\n')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
}

async function extractDocx(bytes: Uint8Array): Promise<ExtractedText> {
  await checkZipExpansion(bytes, DOCX_EXPANSION_LIMITS)
  try {
    const { value } = await mammoth.extractRawText({ buffer: Buffer.from(bytes) })
    return {
      text: normaliseNewlines(value).trim(),
      mimeType: DOCX,
      pages: null,
      title: null,
      scannedPages: [],
      pageTexts: null,
    }
  } catch {
    throw new AppError('corrupt_file', 'The DOCX file could not be read. It may be corrupt.')
  }
}

function extractPlain(bytes: Uint8Array): ExtractedText {
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw new AppError(
      'unsupported_type',
      `This file is neither PDF, DOCX nor UTF-8 text. ${SUPPORTED}`,
    )
  }
  // NUL bytes (or other C0 controls besides tab/newline/form feed) mean binary data, not text.
  // eslint-disable-next-line no-control-regex -- control characters are exactly what we look for
  if (/[\u0000-\u0008\u000e-\u001f]/.test(text)) {
    throw new AppError('unsupported_type', `This file looks binary, not text. ${SUPPORTED}`)
  }
  return {
    text: normaliseNewlines(text.replace(/^\uFEFF/, '')).trim(),
    mimeType: 'text/plain',
    pages: null,
    title: null,
    scannedPages: [],
    pageTexts: null,
  }
}

/**
 * Extracts text from `bytes`. `fileName` only shapes error messages; the bytes decide the type.
 * Runs on a WorkerPool thread in the server (extract-task.ts); CPU-bound for large PDFs.
 */
export async function extractDocumentText(
  bytes: Uint8Array,
  fileName: string,
  limits: ExtractionLimits,
): Promise<ExtractedText> {
  const extracted = await extractByType(bytes, fileName, limits)
  if (extracted.text.length > MAX_DOCUMENT_CHARACTERS) {
    throw new AppError(
      'text_too_long',
      `The text of ${fileName} is ${extracted.text.length.toLocaleString('en-US')} characters long; a document may hold at most ${MAX_DOCUMENT_CHARACTERS.toLocaleString('en-US')} characters.`,
    )
  }
  return extracted
}

async function extractByType(
  bytes: Uint8Array,
  fileName: string,
  limits: ExtractionLimits,
): Promise<ExtractedText> {
  if (bytes.length === 0) throw new AppError('empty_file', `${fileName} is empty.`)
  const detected = await fileTypeFromBuffer(bytes)
  if (!detected) return extractPlain(bytes)
  if (detected.mime === 'application/pdf') return extractPdf(bytes, limits)
  if (detected.ext === 'docx') return extractDocx(bytes)
  throw new AppError('unsupported_type', `${fileName} is a ${detected.mime} file. ${SUPPORTED}`)
}
