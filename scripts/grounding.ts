/**
 * Grounding figures for eval-cuad.ts (issue 48): whether a finding's cited span overlaps a passage
 * CUAD's lawyers labelled with the finding's category, and whether each labelled passage is
 * overlapped by a finding of its category. Labelled passages are quoted in the labels CSV; they
 * are located in the contract text exactly, else with any run of whitespace matching any other.
 */
import type { Span } from '../server/ai/analyzer/types'

/**
 * Running counts: findings with a category and those grounded; labelled passages and those found;
 * characters quoted by the findings and those of them inside a passage labelled with the finding's
 * category (quote precision: a quote that overlaps its passage by one word counts as grounded, so
 * grounding alone rewards wide quotes).
 */
export interface Grounding {
  findings: number
  grounded: number
  passages: number
  recalled: number
  quotedChars: number
  insideChars: number
}

/** Empty counts. */
export function grounding(): Grounding {
  return { findings: 0, grounded: 0, passages: 0, recalled: 0, quotedChars: 0, insideChars: 0 }
}

/**
 * The spans of `passages` (CUAD's labelled clause texts) in `content`; a passage not found in the
 * text (even with whitespace relaxed) is left out. Never throws.
 */
export function locatePassages(content: string, passages: readonly string[]): Span[] {
  const spans: Span[] = []
  for (const passage of passages) {
    const text = passage.trim()
    if (text === '') continue
    const at = content.indexOf(text)
    if (at >= 0) {
      spans.push({ start: at, end: at + text.length })
      continue
    }
    const words = text.split(/\s+/).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    const found = new RegExp(words.join('\\s+')).exec(content)
    if (found) spans.push({ start: found.index, end: found.index + found[0].length })
  }
  return spans
}

/** Whether `span` shares at least one character with one of `spans`. */
export function overlapsAny(span: Span, spans: readonly Span[]): boolean {
  return spans.some((s) => s.start < span.end && span.start < s.end)
}

/** How many characters of `span` lie inside the union of `spans`. */
export function charsInside(span: Span, spans: readonly Span[]): number {
  const cuts = spans
    .map((s) => ({ start: Math.max(s.start, span.start), end: Math.min(s.end, span.end) }))
    .filter((s) => s.start < s.end)
    .sort((a, b) => a.start - b.start)
  let inside = 0
  let reached = span.start
  for (const cut of cuts) {
    const from = Math.max(cut.start, reached)
    if (cut.end > from) inside += cut.end - from
    reached = Math.max(reached, cut.end)
  }
  return inside
}

/**
 * Adds one contract: `findings` are cited spans with the CUAD category each claims (null: none,
 * not counted), `labelled(category)` that category's located passages. `recall` also counts the
 * labelled passages of `categories` (pass [] to count precision only).
 */
export function addGrounding(
  scores: Grounding,
  findings: readonly (Span & { category: string | null })[],
  labelled: (category: string) => Span[],
  categories: readonly string[],
): void {
  for (const finding of findings) {
    if (!finding.category) continue
    scores.findings += 1
    const own = labelled(finding.category)
    if (overlapsAny(finding, own)) scores.grounded += 1
    scores.quotedChars += finding.end - finding.start
    scores.insideChars += charsInside(finding, own)
  }
  for (const category of categories) {
    const own = findings.filter((f) => f.category === category)
    for (const passage of labelled(category)) {
      scores.passages += 1
      if (overlapsAny(passage, own)) scores.recalled += 1
    }
  }
}
