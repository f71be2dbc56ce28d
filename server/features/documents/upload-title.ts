/**
 * The title of an uploaded document: the one typed in the upload form; else, for a PDF, its
 * metadata title (the information dictionary's /Title) when it looks like a title (not
 * "about:blank", a path or "scan_0001"), else its first heading-like line; else
 * the file name without its extension. Scanners and mail clients name PDFs "scan_0001.pdf" or
 * "20240301_final(2).pdf", while the document itself usually states what it is on its first lines.
 */
import { toSingleLineText } from '../../http/single-line-text'
import type { ExtractedText } from './extract-text'

/** Longest stored title, in characters (DocumentTitle's limit). */
const MAX_TITLE = 300
/** How many non-blank lines from the top may hold the heading. */
const HEADING_LINES = 5
/** A heading is a short line: at most this many characters and words. */
const MAX_HEADING_CHARACTERS = 150
const MAX_HEADING_WORDS = 15

/** Words a title-case heading leaves in lower case ("Lease of the Office"). */
const MINOR_WORDS = new Set(
  'a an and as at between by for from in into of on or the to under upon with'.split(' '),
)

/** Page furniture that precedes the heading on many scans and exports. */
const PAGE_MARKER = /^(page\s+)?\d+(\s*(of|\/)\s*\d+)?$/i

/**
 * Metadata titles that say nothing about the document: a word processor's file name
 * ("Microsoft Word - draft.docx", "contract.pdf") or a placeholder.
 */
const UNINFORMATIVE_METADATA =
  /^(untitled|title|print|blank|new document|document\d*|microsoft word - .*)$|\.(pdf|docx?|rtf|odt|txt|html?)$/i

/**
 * A URI (`about:blank`, `https://…`, `file:///…`, as browsers' "print to PDF" leave them) or a
 * file path (`C:\scans\x`, `/tmp/x`): a place, not a title.
 */
const PLACE = /^[a-z][a-z0-9+.-]*:\S*$|^[a-z]:[\\/]|^[\\/]|^\S*[\\/]\S*$/i

/**
 * Whether a metadata title (one line, non-empty) looks like a title: no placeholder, URI or
 * path, at least three letters, and letters rather than digits and separators (scanners' and
 * cameras' names such as "scan_0001" or "IMG_20240301_1200" are not titles).
 */
function looksLikeTitle(title: string): boolean {
  if (UNINFORMATIVE_METADATA.test(title) || PLACE.test(title)) return false
  const visible = title.replace(/\s/g, '')
  const letters = visible.match(/\p{L}/gu)?.length ?? 0
  return letters >= 3 && letters / visible.length >= 0.5 && !/_/.test(title.replace(/\s/g, ' '))
}

/**
 * Whether `line` (trimmed, one line) reads as a heading: it has letters, few digits, no sentence
 * punctuation at its end, at most 15 words and 150 characters, and is in capitals or title case.
 */
function isHeading(line: string): boolean {
  if (line.length < 3 || line.length > MAX_HEADING_CHARACTERS) return false
  if (/[.,;:]$/.test(line) || PAGE_MARKER.test(line)) return false
  const visible = line.replace(/\s/g, '')
  const letters = visible.match(/\p{L}/gu)?.length ?? 0
  const digits = visible.match(/\d/g)?.length ?? 0
  if (letters < 3 || digits / visible.length >= 0.2) return false
  const words = line.split(/\s+/)
  if (words.length > MAX_HEADING_WORDS) return false
  if (line === line.toUpperCase()) return true
  return words
    .filter((word) => /\p{L}/u.test(word) && !MINOR_WORDS.has(word.toLowerCase()))
    .every((word) => /^[^\p{L}]*\p{Lu}/u.test(word))
}

/**
 * The first heading-like line among the first five non-blank lines of `text`, page numbers
 * skipped, or null. Example: '\nMASTER SERVICES AGREEMENT\nThis Agreement is…' →
 * 'MASTER SERVICES AGREEMENT'.
 */
export function headingTitle(text: string): string | null {
  const lines = text
    .split('\n')
    .map(toSingleLineText)
    .filter((line) => line !== '')
    .slice(0, HEADING_LINES)
  return lines.find(isHeading) ?? null
}

function metadataTitle(title: string | null): string | null {
  const cleaned = toSingleLineText(title ?? '')
  return cleaned !== '' && looksLikeTitle(cleaned) ? cleaned : null
}

function fileNameTitle(fileName: string): string {
  return toSingleLineText(fileName.replace(/\.[a-z0-9]{1,5}$/i, '')) || 'Untitled document'
}

/**
 * The title to store for an upload (see the module comment), as one line of at most 300
 * characters. `given` is the form's title (blank = none); `extracted` what the extractor read.
 */
export function uploadTitle(input: {
  given?: string
  fileName: string
  extracted: Pick<ExtractedText, 'text' | 'mimeType' | 'title'>
}): string {
  const { extracted } = input
  const fromPdf =
    extracted.mimeType === 'application/pdf'
      ? (metadataTitle(extracted.title) ?? headingTitle(extracted.text))
      : null
  const title = toSingleLineText(input.given ?? '') || fromPdf || fileNameTitle(input.fileName)
  return title.slice(0, MAX_TITLE)
}
