/**
 * Splits a document's text into passages for search by meaning: runs of whole sentences (or
 * paragraphs) of about TARGET characters, never more than MAX (a longer sentence is cut at a
 * space), with offsets into the original text so a passage can be highlighted where it stands.
 * A paragraph of some length ends its passage. Whitespace between passages belongs to none.
 */
import { charBoundary } from './char-boundary'

/** A passage: `text === content.slice(start, end)`. */
export interface TextChunk {
  start: number
  end: number
  text: string
}

const TARGET = 300
const MAX = 700
/** A paragraph of at least this many characters ends its passage (headings join the next one). */
const PARAGRAPH_MIN = 150

/** Sentence or paragraph ends: punctuation followed by space, or a blank line. */
const BOUNDARY = /(?<=[.;:!?])\s+|\n\s*\n/g

/** The passages of `content`, in order. */
export function chunkText(content: string): TextChunk[] {
  const pieces: Array<[number, number, boolean]> = []
  let from = 0
  for (const match of content.matchAll(BOUNDARY)) {
    pieces.push([from, match.index, /\n\s*\n/.test(match[0])])
    from = match.index + match[0].length
  }
  pieces.push([from, content.length, true])
  const chunks: TextChunk[] = []
  let current: [number, number] | null = null
  const flush = () => {
    if (current) for (const part of cutLong(content, current[0], current[1])) chunks.push(part)
    current = null
  }
  for (const [start, end, paragraphEnd] of pieces) {
    if (content.slice(start, end).trim() === '') continue
    if (current && end - current[0] > MAX) flush()
    current = current ? [current[0], end] : [start, end]
    const length = current[1] - current[0]
    if (length >= TARGET || (paragraphEnd && length >= PARAGRAPH_MIN)) flush()
  }
  flush()
  return chunks
}

/**
 * Cuts [start, end) into pieces of at most MAX characters at spaces (else between two characters,
 * never inside a surrogate pair: charBoundary), trimmed.
 */
function cutLong(content: string, start: number, end: number): TextChunk[] {
  const out: TextChunk[] = []
  let from = start
  while (from < end) {
    let to = Math.min(end, from + MAX)
    if (to < end) {
      const space = content.lastIndexOf(' ', to)
      // No space to cut at: cut between two characters, never inside a surrogate pair.
      to = space > from + MAX / 2 ? space : charBoundary(content, to)
    }
    let s = from
    let e = to
    while (s < e && /\s/.test(content[s] ?? '')) s += 1
    while (e > s && /\s/.test(content[e - 1] ?? '')) e -= 1
    if (e > s) out.push({ start: s, end: e, text: content.slice(s, e) })
    from = to
  }
  return out
}
