/** The deal sheet's term-and-renewal line. */
import { DURATION_SOURCE, durationFrom, formatDuration } from '../dates'
import {
  distinctQuotes,
  flat,
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
  /\b(?:term|duration)\b[^.]{0,40}\b(?:agreement|contract|hereof)\b|\binitial\s+term\b|\b(?:agreement|contract)\b[^.]{0,80}\b(?:expire|continue|remain\s+in)/i
const AFTER_TERM =
  /\b(?:after|following|upon)\s+(?:the\s+)?(?:termination|expiration|expiry)\b|\bsurviv/i

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
    if (open) {
      parts.push('runs until terminated')
      cites.push(open)
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
