/**
 * Reading a yes/no question by rule (decisions 0067, 0075): it opens with an auxiliary verb (does,
 * is, may, can, must, shall, will, are, has…). What it asks is reduced to weighted content terms
 * (stems, with a small thesaurus of contract verbs so "share" finds "disclose"), whether it asks
 * a negated proposition ("Shall the recipient not copy…?"), whether it claims a restriction
 * ("only technical information"), the condition it sets ("upon termination") and whether it asks
 * that something continue ("survive").
 */

/** Openings that make a question answerable by yes or no. */
const AUXILIARIES = new Set(
  'does do did is are was were may might can could must shall should will would has have had need'.split(
    ' ',
  ),
)

/**
 * Words that carry no subject matter: English function words and the auxiliaries themselves.
 * Negations and "only" are read separately, never as terms.
 */
const STOP_WORDS = new Set(
  `a an the of to in on at by for from with without into onto upon about as and or nor but if then than that this these those
  such any all some each every its it it's their them they there his her he she we our us you your i me my
  be been being is are was were am do does did done doing has have had having may might can could must shall should will would
  not no never only other which who whom whose what when where why how also so very same both either neither
  document agreement contract say says said state states provide provides whether under hereunder herein thereof hereof
  case fact even circumstance circumstances similar expressly certain
  nda ndas non-disclosure mention mentions mentioned address addresses addressed`.split(/\s+/),
)

/**
 * Contract verbs and nouns drafted in different words for the same act; each group reads as one
 * term (the first member). Ordinary legal usage, not taken from any evaluation file.
 */
const SYNONYMS: readonly string[][] = [
  [
    'disclos',
    'share',
    'shared',
    'sharing',
    'reveal',
    'divulg',
    'communic',
    'furnish',
    'convey',
    'pass',
  ],
  ['grant', 'licen'],
  ['negoti', 'discuss'],
  ['requir', 'compel'],
  ['law', 'legal', 'legall', 'statut'],
  ['techni', 'techno'],
  ['copy', 'copied', 'copyin', 'reproduc', 'duplic'],
  ['retain', 'retent', 'keep', 'kept', 'archiv'],
  ['destroy', 'destruc', 'eras', 'delet'],
  ['verbal', 'oral', 'orall', 'spoken'],
  ['identif', 'mark', 'marked', 'markin', 'designat', 'label', 'legend'],
  ['use', 'used', 'using', 'utilis', 'utiliz'],
  ['return', 'deliver'],
  ['surviv', 'continu'],
  ['termin', 'expir', 'conclu', 'complet', 'end', 'ended', 'ending'],
  ['solicit', 'hire', 'hiring', 'recruit'],
  ['notif', 'notic'],
  ['acquir', 'obtain'],
  ['develop', 'creat'],
  ['represent', 'employe', 'staff', 'personnel'],
  ['third', 'consult', 'advis', 'agent', 'contract'],
]

/** Whether stem `cut` is thesaurus entry `entry` (short entries whole, so "mark" is not "market"). */
function isEntry(cut: string, entry: string): boolean {
  return entry.length < 5 ? cut === entry : cut.startsWith(entry.slice(0, 6))
}

/** Stems already found, by word (stemOf is pure); emptied when it holds STEMS_KEPT words. */
const stems = new Map<string, string>()

/**
 * Words whose stems are kept: a contract's vocabulary is a few thousand words, so a search's
 * reranking (decision 0130) stems from the map; the bound keeps a long-lived server's memory
 * flat (~50k short strings, a few MB).
 */
const STEMS_KEPT = 50_000

/** The stem of a lower-case word: its first six letters, enough to join disclose/disclosure. */
function stemOf(word: string): string {
  const known = stems.get(word)
  if (known !== undefined) return known
  const cut = word
    .replace(/ies$/, 'y')
    .replace(/(?<=[^s])(es|s)$/, '')
    .slice(0, 6)
  const stem = SYNONYMS.find((group) => group.some((g) => isEntry(cut, g)))?.[0] ?? cut
  if (stems.size >= STEMS_KEPT) stems.clear()
  stems.set(word, stem)
  return stem
}

/**
 * Role names and defined terms every contract repeats ("the Receiving Party", "Confidential
 * Information"): they say who or what, never which act, so they are no evidence of relevance
 * ("Disclosing Party" must not count as the act of disclosing).
 */
export const ROLE_PHRASES =
  /\b(?:receiving|disclosing|other|each|both|either|non-?disclosing)\s+part(?:y|ies)(?:'s)?|\bpart(?:y|ies)(?:'s)?\b|\b(?:recipient|discloser|licensor|licensee|company|customer|supplier)(?:'s)?\b|\bconfidential\s+information\b/g

/**
 * The role phrases of `text` (ROLE_PHRASES), lower case, one space, without a possessive and with
 * "parties" as "party", and "recipient" / "discloser" as the receiving / disclosing party: "the
 * Receiving Party's" → "receiving party". Distinct, in order.
 */
export function rolesOf(text: string): string[] {
  const found = text.toLowerCase().match(ROLE_PHRASES) ?? []
  return [
    ...new Set(
      found.map((r) =>
        r
          .replace(/\s+/g, ' ')
          .replace(/'s$/, '')
          .replace(/parties$/, 'party')
          .replace(/^recipient$/, 'receiving party')
          .replace(/^discloser$/, 'disclosing party'),
      ),
    ),
  ]
}

/** The content-term stems of `text`, in order (repeats kept). */
export function termsOf(text: string): string[] {
  return (
    text
      .toLowerCase()
      .replace(ROLE_PHRASES, ' ')
      .match(/[a-z][a-z'-]*/g) ?? []
  )
    .map((w) => w.replace(/'s$|'/g, ''))
    .filter((w) => w.length > 2 && !STOP_WORDS.has(w))
    .map(stemOf)
}

export interface YesNoQuestion {
  /** Distinct content-term stems of the question. */
  terms: string[]
  /** It asks a negated proposition ("…not…", "…never…", "no … may"). */
  negated: boolean
  /** It claims a restriction: "only", "solely", "exclusively", "limited to". */
  restricted: boolean
  /** It asks about what lies outside something ("for any purpose other than …", "except …"). */
  otherThan: boolean
  /** It asks for a permission: "May…?", "Can…?", "Is … allowed / permitted / entitled…?". */
  permission: boolean
  /**
   * Terms of the condition the question sets ("upon termination", "in case … required by law",
   * "after the return"): a passage answers it only when it states the same condition.
   */
  condition: string[]
  /** It asks whether something continues ("survive", "remain", "continue"). */
  continuing: boolean
  /** Its role phrases (rolesOf): who or what the act concerns ("confidential information"). */
  roles: string[]
}

/** Openings of a condition or point in time the asked act depends on. */
const CONDITION =
  /\b(?:upon|after|following|in case|in the event(?: that| of)?|if|when|once)\s+([^,;?]*)/i

/**
 * A lead naming the document the question is about ("Under the Alpha NDA,", "According to the
 * Beta contract,", "In this agreement"), ended by a comma or by the auxiliary that opens the
 * question itself. Group 1 is the name as written.
 */
const DOCUMENT_LEAD =
  /^\s*(?:under|according to|pursuant to|as per|per|in|by the terms of|for)\s+([^,?]{1,120}?)(?:\s*,\s*|\s+(?=(?:does|do|did|is|are|was|were|may|might|can|could|must|shall|should|will|would|has|have|had|need)\b))/i

/**
 * A leading condition ("If the Recipient is compelled by a court, …", "Upon termination, …"):
 * up to its comma. It stays the question's condition; the question proper follows it.
 */
const CONDITION_LEAD =
  /^\s*(?:if|when|whenever|once|upon|after|following|in the event(?: that| of)?|in case(?: of)?|where)\b[^,?]{1,200},\s*/i

const WH_WORD = /\b(?:what|which|how|why|who|whom|whose|when|where)\b/i

/**
 * A question split into its parts: the document it names (null when none), its leading condition
 * (null when none) and the question proper, which opens with an auxiliary when it is yes/no.
 */
export interface QuestionParts {
  named: string | null
  condition: string | null
  body: string
}

/** Splits off the leads of `question` ("Under the Alpha NDA,", "If …,"), in either order. */
export function questionParts(question: string): QuestionParts {
  let body = question.trim()
  let named: string | null = null
  let condition: string | null = null
  for (let round = 0; round < 2; round += 1) {
    const lead: RegExpExecArray | null = named === null ? DOCUMENT_LEAD.exec(body) : null
    // "In what circumstances may …?", "Under which clause …": a wh-question, not a lead.
    if (lead && !CONDITION_LEAD.test(body) && !WH_WORD.test(lead[1]!)) {
      named = lead[1]!.trim()
      body = body.slice(lead[0].length)
      continue
    }
    const cond: RegExpExecArray | null = condition === null ? CONDITION_LEAD.exec(body) : null
    if (cond) {
      condition = cond[0].replace(/,\s*$/, '').trim()
      body = body.slice(cond[0].length)
    }
  }
  return { named, condition, body }
}

/**
 * The names of the document a question names in its lead, most specific first: "Under the Alpha
 * Mutual NDA, …" → ["Alpha Mutual NDA", "Alpha"] (as written without its article, then without
 * document words such as NDA, agreement, contract). Empty when the lead names none, or only "this
 * agreement" / "the NDA".
 */
export function namedDocument(question: string): string[] {
  const named = questionParts(question).named
  if (!named) return []
  const phrase = named.replace(/^(?:the|this|that|our|your|their|its)\s+/i, '').trim()
  const name = phrase
    .replace(
      /\s*\b(?:mutual\s+)?(?:nda|non-?disclosure(?:\s+agreement)?|confidentiality\s+agreement|agreement|contract|document|deed|lease)s?\b\s*$/i,
      '',
    )
    .trim()
  if (name === '') return []
  return phrase === name ? [name] : [phrase, name]
}

/**
 * The question without its document lead ("Under the Alpha NDA, may …?" → "may …?", a condition
 * lead kept): what to search once the named document is the scope, so the name's words do not
 * pull the search towards passages that merely mention it.
 */
export function withoutDocumentLead(question: string): string {
  const parts = questionParts(question)
  if (parts.named === null) return question
  return parts.condition ? `${parts.condition}, ${parts.body}` : parts.body
}

/**
 * Words of the question proper that say with what force the act is asked about, not which act
 * ("Is X allowed to …", "Does the NDA require X to …", "Is oral information covered by the
 * NDA?"): within the first words after the auxiliary they are not terms. Group 1 is the word.
 */
const MODAL_WORD =
  /^\s*\S+\s+(?:[^,?]{0,60}?\s)?(requires?|required|obliges?|obliged|obligated|allows?|allowed|permits?|permitted|entitles?|entitled|able|free|prohibits?|prohibited|forbids?|forbidden|covers?|covered|protects?|protected)\b/i

/** Whether `question` opens with an auxiliary verb (so it is answered Yes / No / Not addressed). */
export function isYesNoQuestion(question: string): boolean {
  const first = questionParts(question)
    .body.toLowerCase()
    .match(/^[a-z]+/)?.[0]
  return first !== undefined && AUXILIARIES.has(first)
}

/** The question read for deciding, or null when it is not a yes/no question. */
export function readYesNoQuestion(question: string): YesNoQuestion | null {
  if (!isYesNoQuestion(question)) return null
  const parts = questionParts(question)
  const modal = MODAL_WORD.exec(parts.body)
  const modalWord = modal?.[1]?.toLowerCase() ?? ''
  // The modal word is read for force only: "required" here is the question's "must", not the
  // "required by law" of a compelled disclosure.
  const body = modal
    ? `${parts.body.slice(0, modal[0].length - modalWord.length)}${parts.body.slice(modal[0].length)}`
    : parts.body
  // Unqualified "the information" in a question about an NDA is its Confidential Information,
  // a role phrase like any other ("the return of information" asks about the act, return).
  const asked = (parts.condition ? `${parts.condition}, ${body}` : body).replace(
    /\b(the|of|all|any|such|this|that|its|their)\s+information\b/gi,
    '$1 Confidential Information',
  )
  const lower = asked.toLowerCase()
  return {
    terms: [...new Set(termsOf(asked))],
    negated: /\b(not|never|no)\b|n't\b/.test(lower) || /^(?:prohibit|forbid)/.test(modalWord),
    restricted: /\b(only|solely|exclusively|limited to)\b/.test(lower),
    otherThan: /\b(other than|except|apart from|beyond)\b/.test(lower),
    permission:
      /^\s*(may|might|can|could)\b/.test(lower) ||
      /^(?:allow|permit|entitle|able|free)/.test(modalWord) ||
      /\b(allowed|permitted|entitled|free)\b/.test(lower),
    continuing: /\b(surviv\w*|remain\w*|continu\w*)\b/.test(lower),
    condition: [...new Set(termsOf(CONDITION.exec(asked)?.[1] ?? ''))],
    roles: rolesOf(asked),
  }
}
