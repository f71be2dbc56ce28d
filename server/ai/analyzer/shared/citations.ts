/**
 * Citation helpers every analysis engine uses: finding a quoted passage in the source and the
 * span of a finding about an absent clause. Offsets are UTF-16 code units into `content`,
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
 * The span of a risk about a clause the contract lacks: no citation (never the start of the
 * document, which would pass the title off as evidence), the empty span at 0, `absent: true`.
 */
export const ABSENT_CLAUSE = { start: 0, end: 0, absent: true } as const
