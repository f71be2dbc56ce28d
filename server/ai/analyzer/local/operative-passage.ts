/**
 * Whether a passage can stand as a risk's evidence: an operative sentence that binds or entitles
 * someone, not a heading, the title, a definition or a survival list, which only name a clause.
 */

/** Letters but no lower-case ones: "ARTICLE 9 - NON-COMPETITION", "EXCLUSIVE AGREEMENT". */
const ALL_CAPS = /^[^a-z]*[A-Z][^a-z]*$/

/** A verb or modal that makes a sentence operative (someone shall, may, agrees, is liable …). */
const OPERATIVE_VERB =
  /\b(?:shall|will|may|must|agrees?|undertakes?|covenants?|hereby|is|are|be|has|have|owes?|pays?|grants?|assigns?|warrants?|represents?|indemnif\w*)\b/i

/** "X" means / shall mean / has the meaning / is defined as: a definition, at the start. */
const DEFINITION =
  /^\W*(?:(?:\d+(?:\.\d+)*|\([a-z0-9]{1,4}\))\.?\s+)?["“'‘][^"”’]{1,80}["”’]\s*(?:,\s*)?(?:shall\s+mean|means|has\s+the\s+meaning|shall\s+have\s+the\s+meaning|is\s+defined\s+as|refers\s+to|includes?)\b/i

/** A list of provisions that outlive the agreement: "Sections 7, 9 and 11 shall survive …". */
const SURVIVAL =
  /\b(?:shall|will|do|does)\s+(?:continue\s+to\s+)?survive\b|\bsurvives?\s+(?:the\s+|any\s+)?(?:termination|expiration|expiry)\b/i

/** How many section references ("Section 7", "9.2", "(Confidentiality)") make a list of them. */
const SECTION_REFERENCE =
  /\b(?:sections?|articles?|clauses?)\s+\d|\b\d+(?:\.\d+)+\b|\(\w[\w\s-]{2,40}\)/gi

/**
 * A numbered caption at the start, its first word capitalised: "13.1 Force Majeure", "Section 6.3
 * Effect of …", "ARTICLE VII …" (a numbered list item such as "10.2.2 by either party on notice"
 * continues the sentence before it and starts in lower case).
 */
const NUMBERED_CAPTION =
  /^\W*(?:(?:[Aa]rticle|ARTICLE|[Ss]ection|SECTION|[Cc]lause|CLAUSE)\s+[\dIVXLC]+(?:\.\d+)*|\d+(?:\.\d+)+)\.?\s+[A-Z]/

/** A page number followed by the next caption's number, as a table of contents runs them together. */
const CONTENTS_ENTRY = /\b\d{1,3}\s+(?:(?:[Ss]ection|[Aa]rticle)\s+)?\d+(?:\.\d+)+\s+[A-Z]/g

/**
 * True when `text` (one sentence) is an operative provision. False for headings and titles (all
 * capitals and at most twelve words or no operative verb, or at most eight words without one, or a
 * numbered caption of at most twenty words without one), tables of contents (two or more page numbers run into the next
 * caption's number), definitions and survival lists (a survival sentence naming two or more
 * sections or captions). Pure; never throws.
 */
export function isOperativePassage(text: string): boolean {
  const trimmed = text.trim()
  if (trimmed.length === 0) return false
  const words = trimmed.split(/\s+/).length
  // Many contracts set whole operative clauses (disclaimers, caps) in capitals: only a short
  // all-capitals line, or one without an operative verb, is a heading.
  if (ALL_CAPS.test(trimmed) && (words <= 12 || !OPERATIVE_VERB.test(trimmed))) return false
  if (words <= 8 && !OPERATIVE_VERB.test(trimmed)) return false
  if (words <= 20 && NUMBERED_CAPTION.test(trimmed) && !OPERATIVE_VERB.test(trimmed)) return false
  if ((trimmed.match(CONTENTS_ENTRY) ?? []).length >= 2) return false
  if (DEFINITION.test(trimmed)) return false
  if (SURVIVAL.test(trimmed) && (trimmed.match(SECTION_REFERENCE) ?? []).length >= 2) return false
  return true
}
