/**
 * Grounding figures for eval-cuad.ts (issue 48): whether a finding's cited span overlaps a passage
 * CUAD's lawyers labelled with the finding's category, and whether each labelled passage is
 * overlapped by a finding of its category. Labelled passages are quoted in the labels CSV, the
 * pieces of a discontiguous one joined with "<omitted>"; each piece is located in the contract
 * text exactly, else with any run of whitespace matching any other (decision 0144).
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
 * One located piece of a labelled passage. CUAD joins the pieces of a discontiguous passage with
 * "<omitted>"; each piece is located on its own, and `passage` numbers the passage it belongs to
 * (0, 1, ... in the order of the labels given), so that span recall counts a passage once.
 */
export type PassagePiece = Span & { passage: number }

/**
 * The pieces of `passages` (CUAD's labelled clause texts, split on "<omitted>") located in
 * `content`, each exactly, else with any run of whitespace matching any other; a piece not found
 * is left out, and so is a passage none of whose pieces is found. Never throws.
 */
export function locatePassages(content: string, passages: readonly string[]): PassagePiece[] {
  const pieces: PassagePiece[] = []
  passages.forEach((passage, index) => {
    for (const piece of passage.split('<omitted>')) {
      const span = locatePiece(content, piece.trim())
      if (span) pieces.push({ ...span, passage: index })
    }
  })
  return pieces
}

/** Where `text` stands in `content`: exactly, else whitespace relaxed; null when absent or empty. */
function locatePiece(content: string, text: string): Span | null {
  if (text === '') return null
  const at = content.indexOf(text)
  if (at >= 0) return { start: at, end: at + text.length }
  const words = text.split(/\s+/).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  const found = new RegExp(words.join('\\s+')).exec(content)
  return found ? { start: found.index, end: found.index + found[0].length } : null
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
 * not counted), `labelled(category)` the located pieces of that category's passages. A finding is
 * grounded when it overlaps any piece of its category, and its quote precision counts its
 * characters inside any piece. Recall also counts the labelled passages of `categories` (pass []
 * to count precision only): each passage once, recalled when a finding overlaps any of its pieces.
 */
export function addGrounding(
  scores: Grounding,
  findings: readonly (Span & { category: string | null })[],
  labelled: (category: string) => readonly PassagePiece[],
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
    const recalled = new Map<number, boolean>()
    for (const piece of labelled(category)) {
      recalled.set(piece.passage, (recalled.get(piece.passage) ?? false) || overlapsAny(piece, own))
    }
    scores.passages += recalled.size
    for (const hit of recalled.values()) if (hit) scores.recalled += 1
  }
}
