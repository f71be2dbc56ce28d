/**
 * Rejoins the text of a PDF's pages so that no clause is cut in two before sentences are split:
 * running headers and footers (and page numbers) are dropped, a word hyphenated at a line end is
 * mended, and a sentence broken by a line end or a page break is joined with a space. Headings,
 * numbered provisions and paragraph breaks keep their own lines.
 */

/** Lines at each end of a page that may be a running header or footer. */
const EDGE_LINES = 2

/** A line that only numbers the page: "12", "Page 3 of 10", "- 4 -", "p. 7". */
const PAGE_NUMBER = /^(?:page|p\.|pg\.?)?\s*[-–—]?\s*\d{1,4}\s*[-–—]?(?:\s*(?:of|\/)\s*\d{1,4})?$/i

/** A line that opens a provision: "1.1 ", "(a) ", "Section 4", "ARTICLE IV", "a. ". */
const NUMBERED_START =
  /^(?:(?:section|article|clause|schedule|exhibit|annex|§)\s*[\dIVXLC]+|\d+(?:\.\d+)*\.?\s|\([a-zA-Z0-9]{1,4}\)\s|[a-z]\.\s|[IVXLC]{1,6}\.\s)/i

/** A sentence (or provision) ends here: final punctuation, possibly inside quotes or brackets. */
const SENTENCE_END = /[.;:!?]["'”’)\]]*$/

/** Prefixes whose hyphen belongs to the word ("non-compete", "third-party"), kept when mended. */
const COMPOUND_PREFIX = /(?:^|[^\p{L}])(?:non|self|co|cross|third|well|quasi|anti|multi|ex)-$/iu

/**
 * A line this long that ends mid-sentence ran to the margin, so the sentence goes on below even
 * when the next line starts with a capital ("… to the Buyer in / Schedule 1"); shorter lines
 * (address blocks, signature lines) are left alone. 50 characters is about half a text line at
 * 11 pt on a letter or A4 page.
 */
const FULL_LINE_CHARS = 50

/**
 * Joins `pages` (each page's text, lines separated by \n, as pdf.js gives them) into one text.
 * A line among the first or last two of a page is dropped when it only numbers the page, or when
 * the same line (digits ignored) is at the edge of at least two pages and half of them. Pages
 * are then joined line by line: "-\n" between lower-case letters is mended (the hyphen kept after
 * a compound prefix), a line not ending a sentence is joined to the next with a space when the
 * next starts in lower case or the line was full, unless either is a heading (no lower-case
 * letters) or the next opens a numbered provision. Blank lines stay paragraph breaks. Pure.
 */
export function joinPdfPages(pages: readonly string[]): string {
  const pageLines = pages.map((page) => page.split('\n'))
  const running = runningLines(pageLines)
  const lines = pageLines.flatMap((lines) => {
    const edges = edgeIndexes(lines)
    return lines.filter((line, i) => !(edges.has(i) && isRunning(line, running)))
  })
  let out = ''
  let previous: string | null = null
  for (const raw of lines) {
    const line = raw.trim()
    if (previous === null) out = line
    else {
      const joint = separator(previous, line)
      // A mended word loses the hyphen that ended the previous line.
      out = joint === MEND ? out.slice(0, -1) + line : out + joint + line
    }
    previous = line
  }
  return out.trim()
}

/** The separator that mends a word hyphenated at a line end. */
const MEND = 'mend'

/**
 * What goes between two consecutive lines: MEND (drop the hyphen, no space), '' (compound hyphen
 * kept), ' ' (same sentence) or '\n'.
 */
function separator(previous: string, next: string): string {
  if (previous === '' || next === '') return '\n'
  if (isHeading(previous) || isHeading(next) || NUMBERED_START.test(next)) return '\n'
  if (/\p{Ll}-$/u.test(previous) && /^\p{Ll}/u.test(next)) {
    return COMPOUND_PREFIX.test(previous.slice(-8)) ? '' : MEND
  }
  if (SENTENCE_END.test(previous)) return '\n'
  if (/^\p{Ll}/u.test(next) || previous.length >= FULL_LINE_CHARS) return ' '
  return '\n'
}

function isHeading(line: string): boolean {
  return line.length <= 100 && !/\p{Ll}/u.test(line) && /\p{Lu}{2}/u.test(line)
}

/** Indexes of a page's first and last EDGE_LINES non-blank lines. */
function edgeIndexes(lines: readonly string[]): Set<number> {
  const edges = new Set<number>()
  for (let i = 0, found = 0; i < lines.length && found < EDGE_LINES; i += 1) {
    if ((lines[i] ?? '').trim() === '') continue
    edges.add(i)
    found += 1
  }
  for (let i = lines.length - 1, found = 0; i >= 0 && found < EDGE_LINES; i -= 1) {
    if ((lines[i] ?? '').trim() === '') continue
    edges.add(i)
    found += 1
  }
  return edges
}

function edgeKey(line: string): string {
  return line.trim().replace(/\d+/g, '#').replace(/\s+/g, ' ').toLowerCase()
}

/** Keys of the lines that repeat at the edges of at least two pages and half of them. */
function runningLines(pageLines: readonly string[][]): Set<string> {
  const pagesWith = new Map<string, number>()
  for (const lines of pageLines) {
    const keys = new Set([...edgeIndexes(lines)].map((i) => edgeKey(lines[i] ?? '')))
    for (const key of keys) pagesWith.set(key, (pagesWith.get(key) ?? 0) + 1)
  }
  const needed = Math.max(2, Math.ceil(pageLines.length / 2))
  return new Set([...pagesWith].filter(([, count]) => count >= needed).map(([key]) => key))
}

function isRunning(line: string, running: ReadonlySet<string>): boolean {
  const trimmed = line.trim()
  return trimmed !== '' && (PAGE_NUMBER.test(trimmed) || running.has(edgeKey(trimmed)))
}
