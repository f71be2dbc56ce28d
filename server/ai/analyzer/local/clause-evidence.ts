/**
 * Which passage a risk of a CUAD category cites (issue 48, decisions 0129 and 0133): the one the
 * clause detector quotes for the category, so that a risk and the clause finding of its category
 * point at the same operative passage, instead of the first sentence in the document that happens
 * to use the rule's wording (a lead-in, a cross reference, a later section that only mentions the
 * clause). The rule still decides whether the risk is raised (its wording, read on what a sentence
 * asserts); the detector only decides where it is.
 */
import type { Clause, Span } from '../types'

/**
 * The detector's probability from which its clause of a category is cited in place of a sentence
 * the rule's wording matched elsewhere: more likely than not (not fitted per category; 0133 found
 * 0.5 and "any reported clause" within 0.006 of each other on risk grounding, out of fold).
 */
export const PRESENT_CATEGORY = 0.5

/**
 * The passage a risk of `category` cites, given `matches` (sentences whose wording fits the rule,
 * in document order), in this order:
 * - without a category (a rule CUAD has no label for), the first match;
 * - the match overlapping the most confident detected clause of the category (the detector's
 *   choice among the sentences the rule accepts, decision 0129);
 * - when no match overlaps one, the most confident clause of the category the detector reports
 *   (at any confidence since decision 0154; 0133 asked PRESENT_CATEGORY) that `rejects` does not
 *   set aside (its text shows something else: a freedom to compete, a deleted provision,
 *   "non-exclusive"): the wording matched a sentence that only mentions the clause (a lead-in
 *   ending "as follows:", a definition, a cross reference), and the detector quotes the clause
 *   itself (decision 0133, the failure kind "risk citing another sentence than its clause");
 * - else the first match.
 * Undefined when there is no match: whether a clause alone raises the risk is the caller's rule.
 * Pure.
 */
export function clauseEvidence<T extends Span>(
  matches: readonly T[],
  clauses: readonly Clause[],
  category: string | undefined,
  rejects?: (text: string) => boolean,
): T | Clause | undefined {
  if (category === undefined || matches.length === 0) return matches[0]
  const own = clauses
    .filter((c) => c.category === category)
    .sort((a, b) => b.confidence - a.confidence)
  for (const clause of own) {
    const match = matches.find((m) => m.start < clause.end && clause.start < m.end)
    if (match) return match
  }
  return own.find((c) => !rejects?.(c.text)) ?? matches[0]
}
