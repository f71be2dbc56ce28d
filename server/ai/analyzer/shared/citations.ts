/**
 * Citation helpers every analysis engine uses: finding a quoted passage in the source and the
 * passage that stands for the whole document. Offsets are UTF-16 code units into `content`,
 * half-open, as everywhere in the analysis contract (types.ts).
 */
import type { Span } from '../types'

/**
 * Where `quote` occurs in `content`: exact match first, then a match that treats every run of
 * whitespace as equal (models reflow line breaks); null when neither finds it.
 */
export function locateQuote(content: string, quote: string): Span | null {
  const trimmed = quote.trim()
  if (trimmed.length === 0) return null
  const exact = content.indexOf(trimmed)
  if (exact >= 0) return { start: exact, end: exact + trimmed.length }
  const pattern = trimmed
    .split(/\s+/)
    .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('\\s+')
  const match = new RegExp(pattern).exec(content)
  return match ? { start: match.index, end: match.index + match[0].length } : null
}

/**
 * The passage that stands for the whole document when a risk is about something absent: its
 * first line containing a letter (usually the title), trimmed and at most 200 characters; an
 * empty span at 0 when there is none. Offsets are UTF-16 code units into `content`.
 */
export function documentAnchor(content: string): Span {
  const lineRe = /[^\r\n]+/g
  for (let m = lineRe.exec(content); m !== null; m = lineRe.exec(content)) {
    if (!/\p{L}/u.test(m[0])) continue
    const start = m.index + m[0].length - m[0].trimStart().length
    return { start, end: start + Math.min(m[0].trim().length, 200) }
  }
  return { start: 0, end: 0 }
}
