/**
 * The qualifications of a provision: a consent that lifts a prohibition, "unless" and "except"
 * carve-outs, "provided that" provisos, and a leading condition ("if", "upon", "in the event").
 * Issue 48: "shall not, without prior written consent, disclose" is a prohibition with a consent
 * exception, not a permission.
 */
import type { Party } from '../../types'
import type { ClauseException } from './clause-reading'
import { clauseSubject } from './clause-subject'

/** "without (first obtaining) the prior written consent (or approval) of X", "with … consent of X". */
const CONSENT =
  /\b(?:without|except\s+with|unless\s+(?:it\s+has\s+)?(?:first\s+)?(?:obtain(?:s|ed|ing)?|receiv(?:es|ed|ing))|with(?:out)?\s+first\s+obtaining)\s+(?:(?:the|its|their|such)\s+)?(?:(?:express|prior|advance|written|mutual)\s+)*(?:consent|approval|authori[sz]ation)(?:\s+of\s+([^,.;()]{1,80}))?/gi

/** "unless …" up to the end of its clause. */
const UNLESS = /\bunless\b[^.;]{1,200}/gi

/** "except …", not the boilerplate "except as otherwise provided in this Agreement". */
const EXCEPT =
  /\bexcept\s+(?!as\s+(?:otherwise\s+|expressly\s+)*(?:set\s+forth|provided|stated)\s+(?:in|by|under|herein)|with\s+(?:the\s+)?(?:prior\s+)?(?:written\s+)?(?:consent|approval))[^.;]{1,200}/gi

/** "provided that …", "provided, however, that …". */
const PROVIDED = /\bprovided,?\s+(?:however,?\s+|further,?\s+)?that\b[^.;]{1,200}/gi

/** A leading condition: "If …,", "Upon …,", "In the event …,". */
const CONDITION =
  /^\W*(?:(?:\d+(?:\.\d+)*|\([a-z0-9]{1,4}\))\.?\s+)?(?:if|upon|in\s+the\s+event|in\s+case|where|when|whenever|should)\b[^,;]{1,200}/i

/**
 * The qualifications of `text` (one sentence), in order of kind: consents (with the parties whose
 * consent is needed, when named: "the other party" is every party but `who`), unless, except,
 * provided that, condition. Pure; never throws.
 */
export function clauseExceptions(
  text: string,
  parties: readonly Party[],
  who: readonly string[],
): ClauseException[] {
  const found: ClauseException[] = []
  for (const m of text.matchAll(CONSENT)) {
    const named = m[1] ? clauseSubject(m[1], parties) : { who: [], every: false }
    const other = m[1] && /\bother\s+part(?:y|ies)\b/i.test(m[1])
    const of = other ? parties.map((p) => p.name).filter((n) => !who.includes(n)) : named.who
    found.push({ kind: 'consent', text: m[0], ...(of.length > 0 ? { of } : {}) })
  }
  for (const m of text.matchAll(UNLESS)) found.push({ kind: 'unless', text: m[0] })
  for (const m of text.matchAll(EXCEPT)) found.push({ kind: 'except', text: m[0] })
  for (const m of text.matchAll(PROVIDED)) found.push({ kind: 'provided', text: m[0] })
  const condition = CONDITION.exec(text)
  if (condition) found.push({ kind: 'condition', text: condition[0].trim() })
  return found
}
