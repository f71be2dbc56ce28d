/**
 * Whether a sentence gives a right triggered by a change of control, in CUAD's sense (The Atticus
 * Project, CUAD v1 category "Change Of Control"): a party may terminate, or the other side's
 * consent or notice is required, when a party undergoes a change of control, a merger, a sale of
 * all or substantially all of its assets or business, or a sale of a controlling interest.
 */

/** Wording that names a change of control by itself, with no consequence needed. */
const CONTROL_CHANGE =
  /\bchange\s+(?:of|in)\s+(?:the\s+)?(?:effective\s+|actual\s+|direct\s+or\s+indirect\s+)?(?:control|ownership|shareholding)\b|\bacquires?\s+["“]?control["”]?\s+(?:\([^)]{0,60}\)\s+)?of\b|\b(?:material|significant|substantial)\s+(?:change\s+in\s+(?:the\s+)?(?:[\w-]+,?\s+(?:or\s+|and\s+)?){0,4}(?:ownership|control)|(?:ownership|control)\s+change)\b|\bcontrol\s+of\s+(?:[\w-]+\s+){1,3}(?:shall\s+|should\s+)?pass(?:es)?\s+(?:from|to)\b|\b(?:shareholding|shareholder|equity|ownership)\s+structure\s+(?:of\s+\S+\s+)?(?:changes|(?:is|has\s+been)\s+changed)\b/i

/** A transaction that changes who controls a party; a right only with a consequence (below). */
const CONTROL_TRANSACTION =
  /\b(?:merger|consolidation|acquisition\s+(?:by\b|of\s+(?:(?:such|either|a|the|that)\s+party|(?:all|substantially|control)\b))|sale\s+of\s+all\s+or\s+substantially\s+all)\b[^.]{0,160}\b(?:assign\w*|terminat\w*|consent)\b|\bmerges?\s+(?:or\s+consolidates?\s+)?(?:with|into)\b|\b(?:sale|transfer|sells?|transfers?)\s+(?:of\s+)?(?:a\s+|the\s+)?(?:controlling\s+interest|majority\s+of\s+(?:the\s+|its\s+)?(?:\w+\s+){0,2}(?:shares|stock|equity|voting))|\bmajority\s+of\s+(?:the\s+|its\s+)?(?:\w+\s+){0,3}(?:shares|stock|securities|equity)\b[^.]{0,120}\b(?:are|is)\s+acquired\b/i

/** What a change of control sets off: termination, a consent or approval, a notice. */
const CONSEQUENCE =
  /\bterminat\w*|\bconsent\w*|\bapprov\w*|\bnotif\w*|\bnotice\b|\bcease\b|\bassign\w*/i

/**
 * A mention that gives no right: a definition ("… shall mean", "for the purpose of this
 * definition"), leave to disclose the contract to a prospective buyer, a change of control of a
 * third party (a customer, not a party), a filing or registration of a change in ownership, or
 * a representation that no change has happened ("there has not been any … material change"), or
 * a change of control denied the effect of an assignment ("A change of control of X shall not be
 * considered an assignment") or an event denied being one ("a public offering shall not be deemed a
 * Change of Control"), decision 0140.
 */
const NOT_A_RIGHT =
  /\bchange\s+(?:of|in)\s+control\b[^.]{0,80}\b(?:shall|will)\s+not\s+(?:be\s+)?(?:considered|deemed|constitute|treated\s+as)\b|\b(?:shall|will)\s+not\s+(?:be\s+)?(?:considered|deemed|constitute|treated\s+as)\s+(?:to\s+be\s+)?an?\s+change\s+(?:of|in)\s+control\b|\bthere\s+has\s+(?:not\s+been\s+any|been\s+no)\b|\b(?:shall\s+mean|means|definition\s+of)\b|\bdisclos\w*\b[^.]{0,120}\b(?:buyer|acquir\w*|purchaser|investor|merger)|\b(?:buyer|acquir\w*|purchaser|investor)s?\b[^.]{0,80}\bdisclos\w*|\bchange\s+(?:of|in)\s+control\s+of\s+(?:an?|any)\b[^.;]{0,100}\bthird\s+part(?:y|ies)\b|\b(?:register|record|file|statements?\s+of)\b[^.]{0,40}\bchange\s+(?:in|of)\s+ownership\b/i

/**
 * A party left free to pass the contract on in a merger: it may assign without consent, no consent
 * is required, or the contract simply binds successors. CUAD labels such a clause only about half
 * the time, and its own definition asks for a termination right, a consent or a notice, so the
 * clause counts only when it also states one of those (see FREE_BUT_CONDITIONED).
 */
const FREE_TO_ASSIGN =
  /\b(?:may|can|(?:shall|will)\s+(?:be\s+(?:entitled|permitted|free)|have\s+the\s+right)\s+to|is\s+(?:entitled|permitted|free)\s+to)\s+(?:\w+\s+){0,3}(?:assign|transfer)\w*\b|\bmay\s+be\s+(?:freely\s+)?(?:assigned|transferred)\b|\bno\s+(?:such\s+)?(?:prior\s+)?(?:written\s+)?consent\b[^.]{0,40}\b(?:required|necessary|needed)\b|\bdoes\s+not\s+require\s+the\s+(?:\w+\s+){0,2}consent\b|\bbind(?:s|ing)\b[^.]{0,60}\bsuccessors\b|\b(?:shall|will)\s+be\s+(?:assigned|transferred)\s+(?:in\s+conjunction\s+with|together\s+with|to\s+the\s+successor)\b/i

/** What keeps a free assignment a change-of-control right: a notice, a termination, a competitor exception, a deemed assignment. */
const FREE_BUT_CONDITIONED =
  /\bterminat\w*|\bnotif\w*|\bnotice\b|\bdeemed\b|\bcompetitor\w*|\bcompeting\b/i

/**
 * True when `text` (one sentence) states a right or duty triggered by a change of control of a
 * party; false for definitions, disclosures, third parties' changes, registrations and clauses
 * that merely leave a party free to assign in a merger. Pure; never throws.
 */
export function isChangeOfControlRight(text: string): boolean {
  const named =
    CONTROL_CHANGE.test(text) || (CONTROL_TRANSACTION.test(text) && CONSEQUENCE.test(text))
  return named && !isNotAControlRight(text)
}

/**
 * True when `text` only mentions a change of control without a right triggered by it (see
 * isChangeOfControlRight); used to discard the classifier's passages of the same kinds.
 */
export function isNotAControlRight(text: string): boolean {
  return NOT_A_RIGHT.test(text) || (FREE_TO_ASSIGN.test(text) && !FREE_BUT_CONDITIONED.test(text))
}
