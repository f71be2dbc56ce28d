/**
 * Sentence and passage segmentation tuned for contracts.
 *
 * wink-nlp's sentence boundary detector (with its English lite web model) does the general work;
 * legal text then needs fixing up: numbering labels ("1.", "(a)", "Section 2.3(b)") and corporate
 * abbreviations ("Inc.", "U.S.") must not end a sentence, while blank lines and all-caps headings
 * always do.
 */
import { boundedWink } from '../../shared/wink'
import type { QuotedSpan } from '../types'

// Only the boundary detector: POS, NER and sentiment would triple the cost and are not used here.
const nlp = boundedWink(['sbd'])
const its = nlp.its

/** A block longer than this is handed to wink in line-aligned slices, to bound memory per call. */
const MAX_BLOCK_CHARS = 20_000

/** A passage of a run-on table or list longer than this is split at its line breaks. */
const MAX_PASSAGE_CHARS = 2_500

/** A bare numbering label that wink may leave as its own "sentence": "1.", "1.1", "(a)", "IV.", "Section 2.3(b)". */
const NUMBERING_LABEL =
  /^(?:(?:section|article|clause|schedule|exhibit|annex|appendix|part|§)\s*)?(?:\(?(?:\d+[a-z]?(?:\.\d+)*|[ivxlc]{1,6}|[a-z]{1,2})\)?[.:)]?)+$/i

/** A numbered inline caption that wink cuts off its provision: "12.3 Assignment." */
const NUMBERED_CAPTION =
  /^(?:(?:section|article|clause|§)\s*)?\(?[\dIVXLC]+(?:\.\d+)*[a-z]?\)?\.?\s+(?:[A-Z][\w'’/&-]*[ ,]*(?:(?:of|and|or|the|to|for|in|on|by|with)\s+)*){1,6}\.$/

/** Abbreviations that (almost) never end a sentence: always join with what follows. */
const NON_TERMINAL_ABBREVIATION =
  /(?:^|[\s(])(?:no|nos|sec|secs|art|arts|para|paras|cl|sched|exh|ex|e\.g|i\.e|cf|vs|v|viz|approx|mr|mrs|ms|dr|st|pp|p|fig|ref|incl|esp)\.$/i

/** Abbreviations that may end a sentence: join only when the next piece cannot start one. */
const TERMINAL_ABBREVIATION =
  /(?:^|[\s(,])(?:inc|corp|co|ltd|llc|l\.l\.c|l\.p|lp|plc|n\.a|s\.a|b\.v|n\.v|gmbh|ag|u\.s|u\.s\.a|u\.k|e\.u|etc|jr|sr|a\.m|p\.m)\.$/i

/** The first visible character of a piece that continues, rather than starts, a sentence. */
const CONTINUATION_START = /^[a-z0-9,;:)\]"'”’-]/

/** A line that is a heading: letters but no lower-case ones, short, e.g. "ARTICLE 5 - TERMINATION". */
const HEADING_LINE = /^[^a-z]*[A-Z][^a-z]*$/

/** A line that opens a new numbered provision: "1.1 ", "(a) ", "Section 4.", "ARTICLE IV". */
const NUMBERED_LINE_START =
  /^(?:(?:section|article|clause|§)\s*[\dIVXLC]+|\d+(?:\.\d+)*\.?\s|\([a-zA-Z0-9]{1,4}\)\s|[a-z]\.\s|[IVXLC]{1,6}\.\s)/i

interface Piece {
  start: number
  end: number
}

/**
 * Splits `content` into sentences and short standalone passages (headings, list items).
 *
 * Returns spans in document order, non-overlapping, with offsets in UTF-16 code units into
 * `content` and `text === content.slice(start, end)`; surrounding whitespace is never inside a
 * span and pieces without a letter or digit (rules, page breaks) are dropped. Never throws; an
 * empty or blank `content` gives `[]`. Linear in `content.length` (about 60 ms for 300k characters).
 */
export function segmentSentences(content: string): QuotedSpan[] {
  const pieces: Piece[] = []
  for (const block of splitBlocks(content)) {
    for (const part of sliceLongBlock(content, block)) pieces.push(...winkSentences(content, part))
  }
  const merged = mergeFragments(content, pieces)
  const result: QuotedSpan[] = []
  for (const piece of merged.flatMap((p) => splitOverlong(content, p))) {
    const trimmed = trim(content, piece)
    if (trimmed.end <= trimmed.start) continue
    const text = content.slice(trimmed.start, trimmed.end)
    if (!/[\p{L}\p{N}]/u.test(text)) continue
    result.push({ start: trimmed.start, end: trimmed.end, text })
  }
  return result
}

/** Hard boundaries: blank lines, and line breaks next to a heading or before a numbered provision. */
function splitBlocks(content: string): Piece[] {
  const blocks: Piece[] = []
  const lineRe = /[^\n]*(?:\n|$)/g
  let blockStart = -1
  let prevLine: Piece | null = null
  let match: RegExpExecArray | null
  while ((match = lineRe.exec(content)) !== null && match[0].length > 0) {
    const lineStart = match.index
    const lineEnd = lineStart + match[0].replace(/\r?\n$/, '').length
    const line = content.slice(lineStart, lineEnd).trim()
    if (line.length === 0) {
      if (blockStart >= 0 && prevLine) blocks.push({ start: blockStart, end: prevLine.end })
      blockStart = -1
      prevLine = null
      continue
    }
    if (blockStart >= 0 && prevLine && isBreakBetween(content, prevLine, line)) {
      blocks.push({ start: blockStart, end: prevLine.end })
      blockStart = -1
    }
    if (blockStart < 0) blockStart = lineStart
    prevLine = { start: lineStart, end: lineEnd }
  }
  if (blockStart >= 0 && prevLine) blocks.push({ start: blockStart, end: prevLine.end })
  return blocks
}

function isBreakBetween(content: string, prev: Piece, nextLine: string): boolean {
  const prevText = content.slice(prev.start, prev.end).trim()
  if (isHeading(prevText) || isHeading(nextLine)) return true
  return /[.:;]$/.test(prevText) && NUMBERED_LINE_START.test(nextLine)
}

function isHeading(line: string): boolean {
  return line.length <= 100 && HEADING_LINE.test(line) && /[A-Z]{2}/.test(line)
}

/** Cuts a huge block at line breaks so that no single wink call sees more than MAX_BLOCK_CHARS. */
function sliceLongBlock(content: string, block: Piece): Piece[] {
  if (block.end - block.start <= MAX_BLOCK_CHARS) return [block]
  const parts: Piece[] = []
  let start = block.start
  while (block.end - start > MAX_BLOCK_CHARS) {
    const limit = start + MAX_BLOCK_CHARS
    let cut = content.lastIndexOf('\n', limit)
    if (cut <= start) cut = content.lastIndexOf('. ', limit) + 1
    if (cut <= start) cut = limit
    parts.push({ start, end: cut })
    start = cut
  }
  parts.push({ start, end: block.end })
  return parts
}

/** wink's sentences for one block, mapped back to character offsets in `content`. */
function winkSentences(content: string, block: Piece): Piece[] {
  const text = content.slice(block.start, block.end)
  const doc = nlp.readDoc(text)
  const values = doc.tokens().out() as string[]
  const tokenStart = new Array<number>(values.length)
  const tokenEnd = new Array<number>(values.length)
  // Offsets by search, not by summing precedingSpaces: wink drops some Unicode spaces (U+3000).
  let cursor = 0
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i] ?? ''
    const at = text.indexOf(value, cursor)
    const start = at < 0 ? cursor : at
    tokenStart[i] = start
    tokenEnd[i] = at < 0 ? cursor : start + value.length
    cursor = tokenEnd[i] ?? cursor
  }
  const spans = doc.sentences().out(its.span) as unknown as [number, number][]
  const pieces: Piece[] = []
  let previousEnd = 0
  for (const [, last] of spans) {
    const end = tokenEnd[last] ?? previousEnd
    // Start where the previous sentence ended so that no character between them is lost.
    pieces.push({ start: block.start + previousEnd, end: block.start + end })
    previousEnd = end
  }
  if (previousEnd < text.length) pieces.push({ start: block.start + previousEnd, end: block.end })
  return pieces
}

/** Joins numbering labels to their provision and undoes splits after abbreviations. */
function mergeFragments(content: string, pieces: Piece[]): Piece[] {
  const out: Piece[] = []
  for (const piece of pieces) {
    const prev = out[out.length - 1]
    if (prev && prev.end === piece.start && shouldJoin(content, prev, piece)) {
      prev.end = piece.end
    } else {
      out.push({ ...piece })
    }
  }
  return out
}

function shouldJoin(content: string, prev: Piece, next: Piece): boolean {
  const prevText = content.slice(prev.start, prev.end).trim()
  const nextText = content.slice(next.start, next.end).trim()
  if (prevText.length === 0 || nextText.length === 0) return true
  if (NUMBERING_LABEL.test(prevText) && prevText.length <= 24) return true
  if (prevText.length <= 80 && NUMBERED_CAPTION.test(prevText)) return true
  if (NON_TERMINAL_ABBREVIATION.test(prevText)) return true
  if (TERMINAL_ABBREVIATION.test(prevText) && CONTINUATION_START.test(nextText)) return true
  // A sentence never starts with a lower-case word or a closing mark: wink split too eagerly.
  return /^[a-z,;:)\]]/.test(nextText)
}

/** Splits a run-on passage (tables, schedules without punctuation) at its line breaks. */
function splitOverlong(content: string, piece: Piece): Piece[] {
  if (piece.end - piece.start <= MAX_PASSAGE_CHARS) return [piece]
  const parts: Piece[] = []
  let start = piece.start
  for (let nl = content.indexOf('\n', start); nl >= 0 && nl < piece.end;) {
    if (nl - start >= 200) {
      parts.push({ start, end: nl })
      start = nl + 1
    }
    nl = content.indexOf('\n', nl + 1)
  }
  parts.push({ start, end: piece.end })
  return parts
}

function trim(content: string, piece: Piece): Piece {
  let { start, end } = piece
  while (start < end && /\s/.test(content[start] ?? '')) start += 1
  while (end > start && /\s/.test(content[end - 1] ?? '')) end -= 1
  return { start, end }
}
