/**
 * The deal sheet's assignment line (issue 48): who may assign the contract, with whose consent,
 * and what a change of control sets off, each read from the clause (readClause), not named from a
 * category: "Neither party may assign without the other party's consent" → "either party: not
 * without consent of Supplier and Buyer".
 */
import type { Party, QuotedSpan } from '../../types'
import { isChangeOfControlRight } from '../change-of-control'
import { namedParties, partyLabel } from '../reading/named-parties'
import { readClause } from '../reading/read-clause'
import { distinctQuotes, sentencesWith, type LineFinding, type SheetInput } from './sheet-input'

/** An assignment of the contract or of rights under it (not an assignment of IP). */
const ASSIGNS_CONTRACT =
  /\b(?:assign|transfer|delegate)\w*\b[^.;]{0,100}\b(?:this\s+agreement|(?:its|any\s+of\s+its|their)\s+rights|rights\s+(?:and|or)\s+obligations|hereunder|under\s+this\s+agreement)\b|\bthis\s+agreement\b[^.;]{0,80}\b(?:assigned|transferred|assignable|transferable)\b/i

/** Wording of an assignment of intellectual property, which the IP line reads instead. */
const IP_WORDS = /\b(?:intellectual\s+property|inventions?|copyrights?|patents?|work\s+product)\b/i

/** "freely", "without (the need for any) consent": an assignment needing none. */
const FREE =
  /\bfreely\b|\bwithout\s+(?:the\s+need\s+for\s+|obtaining\s+)?(?:any\s+|the\s+)?(?:prior\s+)?(?:written\s+)?consent\b/i

/** What a change of control sets off, in the order a reader asks. */
const CONSEQUENCES: readonly [RegExp, string][] = [
  [/\bterminat\w*/i, 'termination right'],
  [/\bconsent\w*|\bapprov\w*/i, 'consent needed'],
  [/\bnotif\w*|\bnotice\b/i, 'notice'],
  [/\bdeemed\b[^.]{0,40}\bassign/i, 'deemed an assignment'],
]

/**
 * Who may assign, with whose consent (up to two clauses), then a change-of-control consequence,
 * each cited; null when the contract says nothing of either. Never throws.
 */
export function assignmentLine(input: SheetInput): LineFinding {
  const parties = input.keyTerms.parties
  const parts: string[] = []
  const cites: QuotedSpan[] = []
  for (const sentence of sentencesWith(input, ASSIGNS_CONTRACT)
    .filter((s) => !IP_WORDS.test(s.text))
    .slice(0, 2)) {
    const part = assignmentRule(sentence.text, parties)
    if (!part || parts.includes(part)) continue
    parts.push(part)
    cites.push(sentence)
  }
  const control = input.sentences.find((s) => isChangeOfControlRight(s.text))
  const consequence = control && CONSEQUENCES.find(([re]) => re.test(control.text))?.[1]
  if (control && consequence) {
    parts.push(`change of control: ${consequence}`)
    cites.push(control)
  }
  if (parts.length === 0) return null
  return { value: parts.join('; '), citations: distinctQuotes(cites) }
}

/** "may not be assigned by either party": the passive form names who may not assign after "by". */
const PASSIVE_BY =
  /\b(?:be|being)\s+(?:\w+\s+)?(?:assigned|transferred|delegated)\b[^.;]{0,60}?\bby\s+([^,;]{1,80})/i

/** "Licensor's prior written consent": whose consent, written before the word. */
const POSSESSIVE_CONSENT =
  /((?:the\s+)?other\s+part(?:y|ies)|[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*){0,3})['’]s?\s+(?:(?:prior|express|advance|written)\s+){0,3}(?:consent|approval)/

/** "which consent shall not be unreasonably withheld": a qualified consent. */
const NOT_UNREASONABLY = /\bnot\s+(?:to\s+)?be\s+unreasonably\s+(?:withheld|delayed|conditioned)/i

/** "except to an Affiliate", "to a successor in a merger": an assignment allowed without consent. */
const CARVE_OUT =
  /\b(?:except|other\s+than|provided\s+that|however)\b[^.;]{0,120}\b(?:affiliat\w*|successor|merger|acquir\w*|sale\s+of\s+(?:all|substantially))/i

/** "Supplier: not without consent of Buyer", "either party: may assign freely", or null. */
export function assignmentRule(text: string, parties: readonly Party[]): string | null {
  const reading = readClause(text, parties)
  if (reading.modality === null) return null
  let whoNames = reading.who
  let every = reading.everyParty
  if (whoNames.length === 0 && !every) {
    const by = PASSIVE_BY.exec(text)?.[1]?.split(/\s+(?:without|with|except|unless|provided)\b/i)[0]
    if (by) ({ names: whoNames, every } = namedParties(by, parties))
  }
  const who = every
    ? 'either party'
    : whoNames.map((name) => partyLabel(name, parties)).join(' and ') || 'a party'
  const consent = reading.exceptions.find((e) => e.kind === 'consent')
  // Between every party, "the other party's consent" is each one's counterpart, not all of them.
  let whose =
    every && consent && /\bother\s+part/i.test(consent.text)
      ? 'the other party'
      : consent?.of?.map((name) => partyLabel(name, parties)).join(' and ')
  const possessive = POSSESSIVE_CONSENT.exec(text)?.[1]
  if (!whose && possessive) {
    const named = namedParties(possessive, parties)
    const others = /\bother\b/i.test(possessive)
      ? parties.map((p) => p.name).filter((n) => !whoNames.includes(n))
      : named.names
    whose =
      others.length > 0 && others.length < parties.length
        ? others.map((name) => partyLabel(name, parties)).join(' and ')
        : /\bother\b/i.test(possessive)
          ? 'the other party'
          : undefined
  }
  const needsConsent = Boolean(consent) || Boolean(possessive)
  const consentWords = `consent${whose ? ` of ${whose}` : ''}${NOT_UNREASONABLY.test(text) ? ' (not unreasonably withheld)' : ''}`
  const carveOut = CARVE_OUT.exec(text)?.[0]
  const except = carveOut
    ? /affiliat/i.test(carveOut)
      ? ', except to an affiliate'
      : ', except on a merger or sale of the business'
    : ''
  if (reading.modality === 'must-not')
    return needsConsent
      ? `${who}: not without ${consentWords}${except}`
      : `${who}: may not assign${except}`
  if (reading.modality === 'may' || reading.modality === 'need-not') {
    const toAffiliate = /\bto\s+(?:an?|its|any)\s+(?:of\s+its\s+)?affiliat/i.test(text)
    if (FREE.test(text) && !consent?.of)
      return `${who}: may assign ${toAffiliate ? 'to an affiliate without consent' : 'freely'}`
    return needsConsent ? `${who}: may assign with ${consentWords}` : `${who}: may assign${except}`
  }
  return null
}
