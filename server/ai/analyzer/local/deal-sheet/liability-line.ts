/** The deal sheet's liability line: cap, exclusions, indemnities, insurance. */
import type { Party, QuotedSpan } from '../../types'
import { namedParties, partyLabel } from '../reading/named-parties'
import { readClause } from '../reading/read-clause'
import { MONEY } from './money-line'
import {
  clausesOf,
  distinctQuotes,
  isOperative,
  sentencesWith,
  type LineFinding,
  type SheetInput,
} from './sheet-input'

/**
 * A cap: "aggregate liability … shall not exceed", "liability is limited to the fees paid". With
 * CAP_LIMIT, also what the risks are checked against (risk-consistency.ts), so that the deal sheet
 * and the risks agree on whether there is a cap.
 */
export const CAP =
  /\b(?:(?:aggregate|total|cumulative|maximum|entire)\s+liability|liability\b[^.]{0,120}\b(?:shall|will)\s+(?:not|in\s+no\s+event)\s+exceed|liability\b[^.]{0,80}\b(?:limited|capped)\s+to)\b/i
export const CAP_LIMIT =
  /\b(?:exceed|limited\s+to|capped\s+at|capped\s+to|greater\s+of|lesser\s+of)\b/i

/** What a cap is measured by when no amount is written: the fees paid or payable. */
const FEES_MEASURE = /\b(?:fees|amounts?|sums?|price)\b[^.]{0,40}\b(?:paid|payable)\b/i

/** An exclusion of damages: "in no event shall … be liable for … consequential damages". */
const EXCLUSION =
  /\b(?:in\s+no\s+event|not\s+be\s+liable|no\s+liability|shall\s+not\s+be\s+responsible)\b[^.]{0,300}\b(?:consequential|indirect|incidental|special|punitive|exemplary|lost\s+profits?|loss\s+of\s+profits?)\b/i

/** An indemnity given: "shall indemnify, defend and hold harmless". */
const INDEMNITY = /\b(?:shall|will|agrees?\s+to)\s+(?:defend,?\s+)?indemnif\w*/i
const INDEMNITOR =
  /(?:^|[\s(,;])((?:each|either)\s+party|(?:the\s+)?[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*){0,3})\s+(?:shall|will|agrees?\s+to|hereby\s+agrees\s+to)\s+(?:defend,?\s+)?indemnif/

/** An insurance duty: "shall maintain … insurance". */
const INSURANCE =
  /\b(?:maintain|carry|obtain|procure|keep\s+in\s+force)\b[^.]{0,200}\binsurance\b|\binsurance\b[^.]{0,120}\b(?:maintain|carried|in\s+force)\b/i

/**
 * The liability position: the cap (its amount, or "fees paid" when measured by them) or "no cap
 * found", the kinds of damages excluded, who indemnifies whom, and any insurance duty, each cited;
 * null when none of them is found.
 */
export function liabilityLine(input: SheetInput): LineFinding {
  const parts: string[] = []
  const cites: QuotedSpan[] = []
  // CUAD's "Cap On Liability" also covers exclusions of indirect damages: a classifier passage is
  // a cap only when it states a limit (CAP_LIMIT), so a contract with none reads "no cap found".
  const cap =
    sentencesWith(input, CAP, CAP_LIMIT)[0] ??
    clausesOf(input, ['Cap On Liability']).find((c) => isOperative(c) && CAP_LIMIT.test(c.text))
  if (cap) {
    const amount = MONEY.exec(cap.text)?.[0]
    const protects = capProtects(cap.text, input.keyTerms.parties)
    parts.push(
      `cap ${amount?.replace(/\s+/g, ' ') ?? (FEES_MEASURE.test(cap.text) ? 'measured by fees paid' : 'amount not stated')}${protects ? ` protecting ${protects}` : ''}`,
    )
    cites.push(cap)
  }
  const exclusion = sentencesWith(input, EXCLUSION).find((s) => s !== cap)
  if (exclusion) {
    parts.push('indirect and consequential damages excluded')
    cites.push(exclusion)
  }
  const uncapped = clausesOf(input, ['Uncapped Liability']).find((c) => isOperative(c))
  if (uncapped) {
    parts.push('some liabilities uncapped')
    cites.push(uncapped)
  }
  const indemnities = sentencesWith(input, INDEMNITY)
  const givers = [
    ...new Set(
      indemnities.map(
        (s) =>
          INDEMNITOR.exec(s.text.replace(/\s+/g, ' '))?.[1]?.replace(/^the\s+/i, '') ?? 'a party',
      ),
    ),
  ].slice(0, 2)
  if (indemnities.length > 0) {
    parts.push(`indemnity by ${givers.join(' and ')}`)
    cites.push(...indemnities.slice(0, 2))
  }
  const insurance = sentencesWith(input, INSURANCE)[0]
  if (insurance) {
    parts.push('insurance required')
    cites.push(insurance)
  }
  if (parts.length === 0) return null
  // The line is cited by what it did find; the missing cap is said, never left to be assumed.
  if (!cap) parts.unshift('no cap found')
  return { value: parts.join('; '), citations: distinctQuotes(cites) }
}

/** Whose liability a cap sentence limits, as it names it: "liability of X", "X's liability". */
const LIABILITY_OF = /\bliab(?:ility|le)\s+of\s+([^,;]{1,80})/i
const POSSESSIVE_LIABILITY =
  /([^,;.]{1,80}?)['’]s?\s+(?:(?:total|aggregate|entire|cumulative|maximum|collective)\s+(?:and\s+\w+\s+)?)?liability\b/i

/**
 * The party a cap protects (the one whose liability it limits): "each party" when the cap is
 * mutual ("neither party's liability", "the liability of either party"), else a party's label;
 * null when the sentence does not say whose liability it limits.
 */
export function capProtects(text: string, parties: readonly Party[]): string | null {
  const candidates = [
    LIABILITY_OF.exec(text)?.[1],
    POSSESSIVE_LIABILITY.exec(text)?.[1]
      ?.split(/\b(?:of|that|and|the)\s+(?=[A-Z])/)
      .pop(),
  ]
  for (const phrase of candidates) {
    if (!phrase) continue
    const { names, every } = namedParties(phrase, parties)
    if (every) return 'each party'
    const first = names[0]
    if (first) return partyLabel(first, parties)
  }
  const reading = readClause(text, parties)
  if (reading.everyParty) return 'each party'
  const who = reading.who[0]
  return who ? partyLabel(who, parties) : null
}
