/**
 * A check's suggested redlines applied to the document's text (decision 0153): each cited passage
 * of a position not compliant replaced by the suggested (preferred) language, and the language of
 * each missing position appended at the end, so that comparing the document with the result
 * (server/compare/ compareTexts, then buildVerifiedRedline) gives the tracked-changes DOCX a
 * lawyer takes back into Word. Pure.
 */
import type { Span } from '../ai/analyzer/types'

/** What one position's redline asks for: its language, and the passage it replaces (null: insert). */
export interface SuggestedRedline {
  title: string
  language: string
  replaces: Span | null
  /** The passage's text when the check was made, to tell a document changed since. */
  replacedText: string | null
}

/** The text with the redlines applied, and how many were replaced, appended or skipped. */
export interface SuggestedText {
  revised: string
  replaced: number
  appended: number
  /** Replacements skipped because their passage overlaps one applied before (document order). */
  skipped: number
  /** True when a passage no longer reads as it did when checked: the document changed since. */
  stale: boolean
}

/**
 * Applies `redlines` to `content`: replacements in document order (an overlapping one skipped),
 * insertions appended as paragraphs after the text, each headed by its position's title. Never
 * throws.
 */
export function suggestedText(
  content: string,
  redlines: readonly SuggestedRedline[],
): SuggestedText {
  const replacing = redlines
    .filter(
      (r): r is SuggestedRedline & { replaces: Span } => r.replaces !== null && r.language !== '',
    )
    .sort((a, b) => a.replaces.start - b.replaces.start)
  let stale = false
  let at = 0
  let skipped = 0
  let replaced = 0
  const parts: string[] = []
  for (const r of replacing) {
    const { start, end } = r.replaces
    const now = content.slice(start, end)
    if (end > content.length || (r.replacedText !== null && now !== r.replacedText)) {
      stale = true
      continue
    }
    if (start < at) {
      skipped += 1
      continue
    }
    parts.push(content.slice(at, start), r.language)
    at = end
    replaced += 1
  }
  parts.push(content.slice(at))
  const inserting = redlines.filter((r) => r.replaces === null && r.language !== '')
  let revised = parts.join('')
  for (const r of inserting)
    revised = `${revised.replace(/\s*$/, '')}\n\n${r.title}. ${r.language}\n`
  return {
    revised,
    replaced,
    appended: inserting.length,
    skipped,
    stale,
  }
}
