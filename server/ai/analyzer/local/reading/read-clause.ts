/**
 * Reads one operative sentence into what it does (issue 48, decision 0110): who it binds or
 * entitles, its modality, action and object, its exceptions and conditions, whether it leaves a
 * party free rather than binding it, whether it adds, amends or deletes a term, and what it
 * asserts once its negated scopes are set aside. Rules after the drafting conventions of Adams, "A
 * Manual of Style for Contract Drafting", 4th ed., ch. 3 "Categories of Contract Language"
 * (language of obligation, discretion, prohibition, policy).
 */
import type { Party } from '../../types'
import { assertedText } from './asserted-text'
import { clauseEffect } from './clause-effect'
import { clauseExceptions } from './clause-exceptions'
import type { ClauseReading, Modality } from './clause-reading'
import { clauseSubject } from './clause-subject'

/** A modal or a verb of undertaking: where a provision's subject ends and its force is stated. */
const MODAL =
  /\b(?:shall|will|must|may|can(?:not)?|agrees?|undertakes?|covenants?|(?:is|are)\s+(?:hereby\s+)?(?:entitled|permitted|free|required|obligated|obliged|prohibited|authori[sz]ed)|(?:has|have)\s+the\s+(?:sole\s+)?right|retains?\s+the\s+right|hereby)\b/gi

/** A leading clause that is a condition, not the provision ("If X shall fail to pay, …"). */
const CONDITIONAL_HEAD =
  /^\W*(?:(?:\d+(?:\.\d+)*|\([a-z0-9]{1,4}\))\.?\s+)?(?:[A-Z][\w-]*(?:\s+[\w-]+){0,4}\.\s+)?(?:if|in\s+the\s+event|in\s+case|upon|unless|where|when|whenever|should|provided|to\s+the\s+extent)\b/i

/** "… agree(s) that …", "covenants and agrees that …": the provision is the clause after "that". */
const THAT_CLAUSE =
  /^(?:\s+(?:and\s+)?(?:acknowledges?|agrees?|covenants?|undertakes?|confirms?|represents?|warrants?)(?:,)?)*\s+(?:with\s+\S+\s+)?that\b/i

/** A freedom, not a restriction: "nothing … shall prevent", "is free to", "shall not be precluded". */
const FREEDOM =
  /\bnothing\s+(?:in\s+|herein|contained|set\s+forth)[^.;]{0,200}\b(?:shall|will|may|is\s+intended\s+to)\s+(?:be\s+(?:construed|deemed|interpreted)\s+(?:to|as)\s+)?(?:\w+\s+)?(?:prevent|preclude|restrict|prohibit|limit|restrain|bar|impair)s?\b|\b(?:is|are|shall\s+(?:be|remain)|will\s+(?:be|remain)|remains?)\s+(?:entirely\s+|completely\s+)?free\s+to\b|\b(?:shall|will|may)\s+not\s+be\s+(?:\w+\s+)?(?:precluded|prevented|restricted|prohibited|limited|restrained|barred)\s+from\b|\bretains?\s+the\s+right\s+to\b|\bmay\s+freely\b/i

/** A determiner before "covenant(s)": the word is then a noun ("the covenant not to compete"). */
const NOUN_DETERMINER =
  /\b(?:the|a|an|its|his|her|their|any|such|this|these|those|each|all|of|said|restrictive|personal)\s+$/i

/** A prohibition in the subject itself: "Neither party shall", "No party may", "In no event shall". */
const NEGATIVE_SUBJECT = /\b(?:neither|no|none\s+of|in\s+no\s+event)\b[^,;]{0,80}$/i

/**
 * The reading of `text` (one sentence) against the contract's `parties`. Never throws; a sentence
 * without a modal has modality null, no subject and no action.
 */
export function readClause(text: string, parties: readonly Party[]): ClauseReading {
  const main = mainModal(text)
  const freedom = FREEDOM.test(text)
  const subject = main ? clauseSubject(text.slice(main.clauseStart, main.index), parties) : null
  const modality = freedom ? 'may' : main ? modalityOf(text, main) : null
  const { action, object } = main ? actionOf(text.slice(main.index + main.word.length)) : EMPTY
  const who = subject?.who ?? []
  return {
    who,
    everyParty: subject?.every ?? false,
    modality,
    freedom,
    action,
    object,
    exceptions: clauseExceptions(text, parties, who),
    effect: clauseEffect(text),
    asserted: assertedText(text),
  }
}

const EMPTY = { action: null, object: null }

interface ModalAt {
  index: number
  word: string
  /** Where the clause holding the modal starts (after "agrees that", after a leading condition). */
  clauseStart: number
}

/**
 * The modal of the main provision: the first one not inside a leading condition ("If X shall fail
 * …, Y may …" → "may") and, after "agrees that", the one of the agreed clause.
 */
function mainModal(text: string): ModalAt | null {
  let clauseStart = 0
  for (const m of text.matchAll(MODAL)) {
    const index = m.index ?? 0
    if (index < clauseStart) continue
    const head = text.slice(clauseStart, index)
    if (CONDITIONAL_HEAD.test(head) && !/[,;]/.test(head)) {
      // The modal belongs to the condition: the provision starts after the condition's comma.
      const comma = text.slice(index).search(/[,;]/)
      if (comma < 0) return null
      clauseStart = index + comma + 1
      continue
    }
    const word = m[0]
    // "the covenant not to compete", "such covenants": a noun naming a provision, not a verb.
    if (/^covenants?$/i.test(word) && NOUN_DETERMINER.test(text.slice(0, index))) continue
    const after = text.slice(index + word.length)
    const that =
      THAT_CLAUSE.exec(after) ??
      (/^(?:agrees?|covenants?|undertakes?)$/i.test(word) ? /^\s+that\b/i.exec(after) : null)
    if (that && /^(?:agrees?|covenants?|undertakes?|acknowledges?)$/i.test(word)) {
      clauseStart = index + word.length + that[0].length
      continue
    }
    return { index, word, clauseStart }
  }
  return null
}

/** The force of the provision whose modal is `main`. */
function modalityOf(text: string, main: ModalAt): Modality {
  const word = main.word.toLowerCase()
  const head = text.slice(main.clauseStart, main.index)
  const after = text.slice(main.index + main.word.length, main.index + main.word.length + 80)
  if (/^\s+not\s+(?:be\s+)?(?:required|obliged|obligated|bound)\s+to\b/i.test(after))
    return 'need-not'
  const negated =
    /^\s+not\b|^\s+never\b/i.test(after) ||
    /^cannot$/.test(word) ||
    /\bprohibited$/.test(word) ||
    (/^(?:agrees?|covenants?|undertakes?)$/.test(word) &&
      /^\s+(?:that\s+it\s+(?:shall|will)\s+)?not\b/i.test(after)) ||
    NEGATIVE_SUBJECT.test(head)
  if (negated) return 'must-not'
  if (/^(?:may|can)$|entitled|permitted|free|authori[sz]ed|right$/.test(word)) return 'may'
  return 'must'
}

/**
 * The verb after the modal and a few words of its object: negation, adverbs, "be", "to" and a
 * bracketed or comma-set insertion ("shall not, without prior written consent, disclose") skipped.
 */
function actionOf(rest: string): { action: string | null; object: string | null } {
  const cleaned = rest
    .replace(/^\s*,[^,]{0,160},/, ' ')
    .replace(/^\s*\([^)]{0,160}\)/, ' ')
    .replace(
      /^(?:\s+(?:not|never|also|hereby|further|promptly|immediately|directly|indirectly|or|and|only|to|be|at\s+any\s+time|in\s+any\s+event|in\s+writing)\b)+/i,
      ' ',
    )
    .replace(/^\s*,[^,]{0,160},/, ' ')
  const words = /^\s*([a-z][a-z-]*)\b\s*([^,.;:(]{0,80})/i.exec(cleaned)
  if (!words?.[1]) return EMPTY
  const object = (words[2] ?? '').trim().split(/\s+/).slice(0, 6).join(' ')
  return { action: words[1].toLowerCase(), object: object === '' ? null : object }
}
