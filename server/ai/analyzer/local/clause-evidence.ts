/**
 * Which sentence a risk cites when its wording matches several (issue 48, decision 0129): the
 * one the clause detector quotes for the risk's CUAD category, so that a risk and the clause
 * finding of its category point at the same operative sentence, instead of the first sentence in
 * the document that happens to use the wording (a definition's neighbour, a lead-in, a cross
 * reference, a later section that only mentions the clause).
 */
import type { Clause, Span } from '../types'

/**
 * Of `matches` (sentences whose wording fits a risk, in document order), the one overlapping the
 * most confident detected clause of `category`; else the first match; undefined when there is
 * none. Only the detector's choice among sentences the rule already accepts: a clause of the
 * category that no match overlaps adds nothing here (its own confidence threshold decides that
 * elsewhere). Pure.
 */
export function clauseEvidence<T extends Span>(
  matches: readonly T[],
  clauses: readonly Clause[],
  category: string | undefined,
): T | undefined {
  if (category === undefined || matches.length < 2) return matches[0]
  let best: { match: T; confidence: number } | undefined
  for (const clause of clauses) {
    if (clause.category !== category) continue
    if (best && clause.confidence <= best.confidence) continue
    const match = matches.find((m) => m.start < clause.end && clause.start < m.end)
    if (match) best = { match, confidence: clause.confidence }
  }
  return best?.match ?? matches[0]
}
