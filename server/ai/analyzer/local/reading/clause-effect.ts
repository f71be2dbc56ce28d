/**
 * Whether a sentence adds a term, amends one or deletes one: an amendment that strikes a covenant
 * ("Section 7 (Non-Competition) is hereby deleted in its entirety") imposes nothing (issue 48).
 * Wording from the usual forms of amendment agreements (Adams, "A Manual of Style for Contract
 * Drafting", 4th ed., ch. 16 "Amendments").
 */
import type { ClauseEffect } from './clause-reading'

/** A term struck out, revoked or made of no effect. */
const DELETES =
  /\b(?:is|are)\s+hereby\s+(?:deleted|removed|struck|stricken|revoked|rescinded|terminated|cancell?ed|waived|released)\b|\b(?:is|are|shall\s+be)\s+(?:hereby\s+)?deleted\b|\bdeleted\s+in\s+(?:its|their)\s+entirety\b|\bhereby\s+(?:deletes?|revokes?|rescinds?)\b|\b(?:shall|will)\s+(?:no\s+longer|cease\s+to)\s+(?:apply|bind|be\s+(?:binding|effective|in\s+(?:force|effect)|of\s+(?:any\s+)?(?:force|effect))|have\s+(?:any\s+)?(?:force|effect))\b|\b(?:shall\s+be|is|are)\s+(?:hereby\s+)?(?:null\s+and\s+void|of\s+no\s+(?:further\s+)?(?:force|effect))\b|\bamended\s+by\s+deleting\b(?![^.]{0,200}\b(?:insert\w*|add\w*|replac\w*|substitut\w*)\b)/i

/** A term changed: amended, modified, restated or replaced. */
const AMENDS =
  /\b(?:is|are)\s+hereby\s+(?:amended|modified|restated|replaced|supplemented|revised)\b|\bamended\s+(?:and\s+restated\s+)?(?:to\s+read|as\s+follows|by\s+(?:adding|inserting|replacing|substituting))\b|\b(?:is|are)\s+(?:hereby\s+)?replaced\s+(?:in\s+(?:its|their)\s+entirety\s+)?(?:with|by)\b/i

/** The effect of `text` (one sentence): 'deletes', 'amends' or 'adds'. Pure; never throws. */
export function clauseEffect(text: string): ClauseEffect {
  if (DELETES.test(text)) return 'deletes'
  if (AMENDS.test(text)) return 'amends'
  return 'adds'
}
