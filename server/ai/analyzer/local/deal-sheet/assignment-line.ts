/**
 * The deal sheet's assignment line (issue 48): who may assign the contract, with whose consent,
 * and what a change of control sets off, each read from the clause (readClause), not named from a
 * category: "Neither party may assign without the other party's consent" → "either party: not
 * without consent of Supplier and Buyer".
 */
import type { Party, QuotedSpan } from '../../types'
import { isChangeOfControlRight } from '../change-of-control'
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

/** "Supplier: not without consent of Buyer", "either party: may assign freely", or null. */
function assignmentRule(text: string, parties: readonly Party[]): string | null {
  const reading = readClause(text, parties)
  if (reading.modality === null) return null
  const who = reading.everyParty
    ? 'either party'
    : reading.who.map((name) => shortName(name, parties)).join(' and ') || 'a party'
  const consent = reading.exceptions.find((e) => e.kind === 'consent')
  const whose = consent?.of?.map((name) => shortName(name, parties)).join(' and ')
  const consentWords = `consent${whose ? ` of ${whose}` : ''}`
  if (reading.modality === 'must-not')
    return consent ? `${who}: not without ${consentWords}` : `${who}: may not assign`
  if (reading.modality === 'may' || reading.modality === 'need-not') {
    if (FREE.test(text) && !consent?.of) return `${who}: may assign freely`
    return consent ? `${who}: may assign with ${consentWords}` : `${who}: may assign`
  }
  return null
}

/** The label a reader knows a party by: its defined term, else its name. */
function shortName(name: string, parties: readonly Party[]): string {
  return parties.find((p) => p.name === name)?.definedTerm?.text ?? name
}
