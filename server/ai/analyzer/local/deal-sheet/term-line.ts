/** The deal sheet's term-and-renewal line. */
import type { QuotedSpan } from '../../types'
import { DURATION_SOURCE, datesIn, durationFrom, formatDuration } from '../dates'
import {
  distinctQuotes,
  flat,
  isOperative,
  quote,
  sentencesWith,
  type LineFinding,
  type SheetInput,
} from './sheet-input'

/** "The term of this Agreement shall be five (5) years", "an initial term of 3 years". */
const TERM_LENGTH = new RegExp(
  String.raw`\b(?:term|period)\b[^.;]{0,80}?\b(?:of|be|for|is|continue\s+for|last\s+for)\s+(?:an?\s+(?:initial\s+)?(?:period|term)\s+of\s+)?${DURATION_SOURCE}`,
  'i',
)

/** A term that runs until ended: "shall continue in full force until terminated", "perpetual". */
const OPEN_ENDED =
  /\b(?:continue|remain)\s+in\s+(?:full\s+)?(?:force\s+and\s+effect|effect|force)\b[^.]{0,80}\buntil\s+(?:terminated|termination)|\b(?:perpetual|indefinite)\s+(?:term|duration|period)\b|\bterm\b[^.]{0,60}\b(?:perpetual|indefinite)\b/i

/** Sentences about the term itself, not about what happens after it or a licence's duration. */
const ABOUT_TERM =
  /\b(?:term|duration)\b[^.]{0,40}\b(?:agreement|contract|hereof)\b|\b(?:initial|[A-Z][a-z]+)\s+[Tt]erm\b|\b[Tt]he\s+["“]?Term\b|\b(?:agreement|contract)\b[^.]{0,80}\b(?:expire|continue|remain\s+in)/i
const AFTER_TERM =
  /\b(?:after|following|upon)\s+(?:the\s+)?(?:termination|expiration|expiry)\b|\bsurviv/i

/**
 * A sentence that sets when the contract starts and ends without the word "term": "shall commence
 * on … and continue until …", "shall remain in effect for …", "shall expire on …".
 */
const RUNS =
  /\b(?:commenc|begin|start)\w*\b[^.]{0,160}\b(?:continu|remain|end|expir|terminat)\w*|\b(?:shall|will)\s+(?:remain|continue)\s+in\s+(?:full\s+)?(?:force|effect)\b[^.]{0,60}\b(?:for|until|through)\b|\b(?:shall|will)\s+(?:expire|end|terminate)\s+(?:on|at\s+the\s+end\s+of)\b|\b(?:shall|will)\s+be\s+in\s+(?:full\s+)?(?:force|effect)\s+(?:for|until|through)\b/i

/** A heading that announces the term clause: "4.1 Term.", "ARTICLE 12 TERM AND TERMINATION". */
const TERM_HEADING =
  /^\s*(?:(?:ARTICLE|Article|Section|SECTION)\s+)?[\dIVX.()a-z]*\s*(?:Term|TERM)(?:\s+(?:and|&|AND)\s+(?:Termination|TERMINATION))?\W{0,3}$/

/** What ends a term when no length is written: "until December 31, 2020", "until terminated". */
const UNTIL = /\b(?:until|through|expire\w*\s+on|end\w*\s+on|terminate\w*\s+on)\s+/i

/**
 * The term and renewal: the initial term's length or end date, whether it is open-ended, the
 * renewal period and the notice to stop a renewal, each cited; null when none is stated.
 */
export function termLine(input: SheetInput): LineFinding {
  const { content, keyTerms } = input
  const parts: string[] = []
  const cites = []
  const aboutTerm = sentencesWith(input, ABOUT_TERM).filter((s) => !AFTER_TERM.test(s.text))
  const lengthSentence = aboutTerm.find((s) => TERM_LENGTH.test(s.text))
  const m = lengthSentence ? TERM_LENGTH.exec(lengthSentence.text) : null
  const duration = m ? durationFrom(m, 1) : null
  if (lengthSentence && duration) {
    parts.push(`initial term ${formatDuration(duration)}`)
    cites.push(lengthSentence)
  }
  const expiry = keyTerms.expirationDate
  if (expiry) {
    parts.push(expiry.value === 'perpetual' ? 'no fixed end' : `ends ${expiry.value}`)
    cites.push(quote(content, expiry))
  } else if (!duration) {
    const open = aboutTerm.find((s) => OPEN_ENDED.test(s.text))
    const stated = open ?? termClause(input)
    if (stated) {
      parts.push(open ? 'runs until terminated' : describeTerm(stated))
      cites.push(stated)
    }
  }
  if (keyTerms.renewalTerm) {
    parts.push(`renews for ${keyTerms.renewalTerm.value}`)
    cites.push(quote(content, keyTerms.renewalTerm))
  }
  if (keyTerms.noticePeriod) {
    parts.push(`${keyTerms.noticePeriod.value}' notice to stop renewal`)
    cites.push(quote(content, keyTerms.noticePeriod))
  }
  if (parts.length === 0) return null
  return { value: flat(parts.join('; ')), citations: distinctQuotes(cites) }
}

/**
 * The sentence that states the term when no length was read: a sentence that starts and ends the
 * contract ("shall commence … and continue until …"), else the first operative sentence after a
 * "Term" heading. Null when neither exists.
 */
function termClause(input: SheetInput): QuotedSpan | null {
  const runs = sentencesWith(input, RUNS).find(
    (s) => !AFTER_TERM.test(s.text) && /\b(?:agreement|contract|term)\b/i.test(s.text),
  )
  if (runs) return runs
  const { sentences } = input
  for (let i = 0; i + 1 < sentences.length; i += 1) {
    if (!TERM_HEADING.test(sentences[i]?.text ?? '')) continue
    const next = sentences[i + 1]
    if (next && isOperative(next) && !AFTER_TERM.test(next.text)) return next
  }
  return null
}

/** "runs 2 years", "runs until 2020-12-31" or "as stated", read from a term sentence. */
export function describeTerm(sentence: QuotedSpan): string {
  const text = flat(sentence.text)
  const m = new RegExp(DURATION_SOURCE, 'i').exec(text)
  const duration = m ? durationFrom(m, 1) : null
  if (duration) return `runs ${formatDuration(duration)}`
  const until = UNTIL.exec(text)
  const end = until ? datesIn(text.slice(until.index), 0)[0] : undefined
  if (end) return `runs until ${end.value}`
  if (/\buntil\s+(?:terminated|termination)\b/i.test(text)) return 'runs until terminated'
  return 'as stated in the term clause'
}
