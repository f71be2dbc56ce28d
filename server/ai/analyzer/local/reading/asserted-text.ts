/**
 * A sentence with what it denies blanked out, so that a rule looking for a fee, an exclusivity or
 * unlimited liability finds only what the sentence asserts (issue 48: "without any early
 * termination penalty" is no exit fee, a "non-exclusive licence" no exclusivity, "an unlimited
 * liability company" a kind of company, not a liability term).
 */

/** What money or burden a "without …" scope denies. */
const BURDEN = String.raw`(?:penalt(?:y|ies)|fees?|charges?|costs?|payments?|premiums?|liabilit(?:y|ies)|damages|compensation|surcharges?)`

/**
 * Negated scopes: "without (any) (early termination) penalty", "without payment of any fee",
 * "free of (any) charge", "no (termination) fee shall be payable / is due", "not subject to any
 * (cancellation) fee", "non-exclusive(ly)" (also "non- exclusive" and "nonexclusive", a hyphen broken
 * over a line in filed text), and company forms (limited or unlimited liability
 * company, corporation or partnership).
 */
const NEGATED = new RegExp(
  [
    String.raw`\bwithout\s+(?:(?:the\s+)?(?:payment|incurring|imposition|liability\s+for)\s+of\s+|incurring\s+)?(?:any\s+)?(?:further\s+)?(?:[\w-]+\s+){0,3}?${BURDEN}\b`,
    String.raw`\bfree\s+of\s+(?:any\s+)?(?:[\w-]+\s+){0,2}?${BURDEN}\b`,
    String.raw`\bnot\s+(?:be\s+)?subject\s+to\s+(?:any\s+)?(?:[\w-]+\s+){0,3}?${BURDEN}\b`,
    String.raw`\bno\s+(?:[\w-]+\s+){0,3}?${BURDEN}\s+(?:shall|will|is|are)\s+(?:be\s+)?(?:payable|due|owed|owing|charged|incurred|imposed|required)\b`,
    String.raw`\bnon\s{0,3}-?\s{0,3}exclusive(?:ly)?\b`,
    String.raw`\b(?:un)?limited\s+liability\s+(?:company|companies|corporations?|partnerships?|limited\s+partnerships?)\b`,
  ].join('|'),
  'gi',
)

/**
 * `text` with each negated scope replaced by as many spaces, so that its length and offsets are
 * unchanged. Pure; never throws.
 */
export function assertedText(text: string): string {
  return text.replace(NEGATED, (scope) => ' '.repeat(scope.length))
}
