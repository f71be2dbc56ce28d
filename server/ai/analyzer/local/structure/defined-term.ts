/**
 * The term a definition defines: `"Affiliate" means …`, `1.4 "Territory" shall mean …`, `(c) the
 * terms "person" or "persons" shall mean …`, `As used in this Agreement, "Products" refers to …`,
 * `Affiliate means …` (a capitalised term without quotes, as some drafters write it). Conventions
 * from Adams, "A Manual of Style for Contract Drafting", 4th ed., ch. 6.
 */

/** An opening numbering label, a lead-in ("As used herein,"), and "the term(s)". */
const LEAD = String.raw`^\W*(?:(?:\d+(?:\.\d+)*|\(?[a-z0-9]{1,4}\))\.?\s+)?(?:(?:definitions?|defined\s+terms|interpretation)\s*[.:-]\s*)?(?:(?:as\s+used\s+(?:herein|in\s+this\s+(?:agreement|section|article)[^,:"“]{0,40})|for\s+(?:the\s+)?purposes\s+of\s+this\s+(?:agreement|section|article)[^,:"“]{0,40}|in\s+this\s+agreement)\s*[,:]?\s*)?(?:\(?[a-z0-9]{1,4}\)\s+)?(?:the\s+(?:terms?|expressions?|words?)\s+)?`

/** The verb that makes a definition. */
const DEFINES = String.raw`(?:,\s*)?(?:shall\s+mean|means|mean|has\s+the\s+meaning|have\s+the\s+(?:respective\s+)?meanings?|shall\s+have\s+the\s+(?:respective\s+)?meanings?|is\s+defined\s+as|refers\s+to|shall\s+refer\s+to|includes?|shall\s+include)\b`

/** A quoted term (or two: "person" or "persons") then the verb. */
const QUOTED = new RegExp(
  String.raw`${LEAD}["“'‘]([^"”’]{1,80})["”’](?:\s*(?:,|or|and|and/or)\s*["“'‘][^"”’]{1,80}["”’])*\s*(?:\([^)]{0,60}\)\s*)?${DEFINES}`,
  'i',
)

/** An unquoted capitalised term of one to five words at the start, then "means" / "shall mean". */
const BARE =
  /^\W*(?:(?:\d+(?:\.\d+)*|\(?[a-z0-9]{1,4}\))\.?\s+)?((?:[A-Z][\w'’-]*\s+){1,5})(?:shall\s+mean|means)\b/

/**
 * The term `text` (one sentence) defines, without its quotes; null when it is no definition.
 * Pure; never throws.
 */
export function definedTerm(text: string): string | null {
  const quoted = QUOTED.exec(text)
  if (quoted?.[1]) return quoted[1].trim()
  const bare = BARE.exec(text)
  return bare?.[1] ? bare[1].trim() : null
}
