/** The deal sheet's identity lines: the deal, the parties, the dates, governing law and venue. */
import type { Party, QuotedSpan } from '../../types'
import { agreementTitle } from '../agreement-title'
import { readClause } from '../reading/read-clause'
import {
  clausesOf,
  distinctQuotes,
  flat,
  isOperative,
  quote,
  sentencesWith,
  type LineFinding,
  type SheetInput,
} from './sheet-input'

/** The operative verb of what the deal is about: granting, appointing, supplying, providing. */
const PURPOSE =
  /\b(?:hereby\s+)?(?:grants?|appoints?|engages?|retains?|agrees?\s+to\s+(?:sell|supply|provide|purchase|buy|manufacture|distribute|develop|perform|market|lease|license|lend|deliver|promote|host|render)|shall\s+(?:provide|supply|manufacture|distribute|develop|perform|render|deliver|sell|purchase|market|host)|wishes\s+to\s+(?:engage|appoint|obtain|purchase|acquire|distribute|sell))\b/i

/** A subject phrase is cut here: the next clause or qualification. */
const SUBJECT_END =
  /[;:]|,\s+(?:and\s+)?(?:subject|pursuant|in\s+accordance|on\s+the\s+terms|upon|as\s+(?:set|more)|which|provided|except|under)\b|\s+\((?:the|each|collectively|hereinafter)\b/i

/** Words of a subject phrase kept at most; a longer one ends with an ellipsis. */
const SUBJECT_WORDS = 24

/**
 * The deal in one sentence: its type, between whom, and what it is for. What it is for is read from
 * the first sentence whose reading makes a party grant, appoint, supply, provide … (readClause: an
 * obligation or a grant, not a prohibition, a freedom, a condition's consequence or a deemed
 * effect); an NDA's is the confidential information it protects and, when an operative sentence
 * states it, the purpose it is disclosed for.
 */
export function dealLine(input: SheetInput): LineFinding {
  const title = dealTitle(input.content)
  const names = input.keyTerms.parties.map((p) => p.name)
  const type = title?.value ?? 'Agreement'
  const nda = NDA_TITLE.test(type)
  const purpose = nda ? null : dealSentence(input)
  const disclosure = nda || !purpose ? ndaPurpose(input) : null
  if (!title && !purpose && !disclosure) return null
  const between = names.length > 0 ? ` between ${listNames(names)}` : ''
  const subject = purpose ? subjectPhrase(purpose.text) : (disclosure?.value ?? '')
  const value = `${type}${between}${subject ? `: ${subject}` : ''}.`
  return {
    value: value.replace(/\.\.$/, '.'),
    citations: distinctQuotes([
      title ? quote(input.content, title) : null,
      purpose ?? disclosure?.sentence,
    ]),
  }
}

/** A confidentiality agreement's name: "Mutual Non-Disclosure Agreement", "CDA", "NDA". */
const NDA_TITLE = /\bnon-?\s?disclosure\b|\bconfidential(?:ity)?\b|\bsecrecy\b|\b[MCN]DA\b/i

/** The verbs of what a deal does, as the reading gives its main action. */
const DEAL_ACTIONS =
  /^(?:grants?|appoints?|engages?|retains?|sells?|supply|supplies|provide|provides|purchase|purchases|buy|buys|manufacture|distribute|develop|perform|market|lease|leases|license|licenses|lend|deliver|promote|host|render|sell|grant|appoint|engage|retain)$/

/** A present-tense grant or appointment, which needs no modal. */
const PERFORMATIVE = /\b(?:grants|appoints|engages|retains|licenses|leases|sells)\b/

/** Words that make a sentence a deemed effect or a consequence, not what the deal is. */
const NOT_THE_DEAL =
  /\bdeemed\b|\b(?:upon|after|following)\s+(?:the\s+)?(?:termination|expiration|expiry)\b|^\W*nothing\b/i

/** The first sentence (a License Grant clause first) whose reading states what the deal does. */
function dealSentence(input: SheetInput): QuotedSpan | null {
  const parties = input.keyTerms.parties
  const candidates = [
    ...clausesOf(input, ['License Grant']).filter((c) => isOperative(c)),
    ...sentencesWith(input, PURPOSE),
  ]
  for (const sentence of candidates) {
    if (!PURPOSE.test(sentence.text) || NOT_THE_DEAL.test(sentence.text)) continue
    const reading = readClause(sentence.text, parties)
    // A performative in the present tense has no modal: "The Supplier appoints the Distributor".
    const performative = PERFORMATIVE.exec(sentence.text)
    if (reading.modality === null && performative) {
      const before = sentence.text.slice(0, performative.index)
      if (!/\b(?:neither|nor|not|no|if|upon|nothing)\b/i.test(before)) return sentence
      continue
    }
    if (reading.modality !== 'must' && reading.modality !== 'may') continue
    if (reading.freedom || reading.effect === 'deletes') continue
    if (reading.exceptions.some((e) => e.kind === 'condition')) continue
    if (!reading.action || !DEAL_ACTIONS.test(reading.action)) continue
    // "retain" is a deal only when a party is retained ("hereby retains Consultant"), not a copy.
    if (/^retains?$/.test(reading.action) && !/\bhereby\s+retains?\b/i.test(sentence.text)) continue
    // "Neither X nor its employees, shall sell …": a prohibition the reading may take for a duty.
    const verb = sentence.text.search(new RegExp(`\\b${reading.action}\\b`, 'i'))
    if (/\b(?:neither|nor|not|no)\b/i.test(sentence.text.slice(0, Math.max(0, verb)))) continue
    return sentence
  }
  return null
}

/** "for the purpose of evaluating a possible transaction", "in connection with the Project". */
const DISCLOSURE_PURPOSE =
  /\b(?:for\s+the\s+(?:sole\s+|limited\s+)?purposes?\s+of(?!\s+(?:this|the)\b[^,;.]{0,30}\b(?:agreement|clause|section)\b)|solely\s+for|in\s+order\s+to|in\s+connection\s+with)\s+((?:[\w’'-]+\s+){1,14}?[\w’'-]+)(?=[,;.(]|\s+(?:and|or|provided|subject|as|which|under|pursuant)\b|$)/i

/**
 * What an NDA is for: the confidential information it protects and, from the first operative
 * sentence about disclosing it that states one, the purpose; null when no sentence mentions
 * confidential information.
 */
function ndaPurpose(input: SheetInput): { value: string; sentence: QuotedSpan } | null {
  const about = sentencesWith(input, /\bconfidential\b|\bproprietary\s+information\b/i)
  for (const sentence of about) {
    const m = DISCLOSURE_PURPOSE.exec(flat(sentence.text))
    if (m?.[1] && /\bdisclos|\bus(?:e|ed)\b|\bexchang|\bprovid|\breceiv/i.test(sentence.text))
      return {
        value: `protects confidential information disclosed ${m[0].replace(/^solely\s+/i, '')}`,
        sentence,
      }
  }
  const first = about[0]
  return first ? { value: 'protects confidential information', sentence: first } : null
}

/**
 * An upper-case title run ending in its kind ("STRATEGIC ALLIANCE AGREEMENT"): many filed texts
 * lost their line breaks, so the title is no line of its own (agreementTitle needs one).
 */
const CAPS_TITLE =
  /(?<![\p{Lu}&'’-]\s?)((?:[\p{Lu}][\p{Lu}&'’-]*\s+){0,7}(?:AGREEMENT|CONTRACT|LICEN[CS]E|LEASE|ADDENDUM))(?![\p{L}])/u

/**
 * The contract's title with its span: a title line (agreementTitle), else the first of an
 * upper-case title run and the preamble's name ("This Supply Agreement is made …"); null when none.
 */
export function dealTitle(content: string): { value: string; start: number; end: number } | null {
  const line = agreementTitle(content)
  if (line) return line
  const head = content.slice(0, PREAMBLE_TITLE_CHARS)
  const caps = CAPS_TITLE.exec(head)
  const preamble = preambleTitle(content)
  if (caps?.[1]) {
    const name = caps[1].replace(/^(?:(?:THIS|THE|EXHIBIT|AND)\s+)+/u, '')
    const start = caps.index + caps[1].length - name.length
    if (name.split(/\s+/).length > 1 && (!preamble || start < preamble.start))
      return { value: titleCase(name), start, end: start + name.length }
  }
  return preamble
}

function titleCase(name: string): string {
  return name
    .replace(/\s+/g, ' ')
    .toLowerCase()
    .replace(
      /(^|[\s-])(\p{L})/gu,
      (_, space: string, letter: string) => space + letter.toUpperCase(),
    )
    .replace(/\b(And|Of|The|For|To|In)\b/g, (word) => word.toLowerCase())
}

/** The agreement's name as its preamble gives it ("This Supply Agreement is made …"). */
const PREAMBLE_TITLE =
  /\b(?:This|THIS)\s+((?:[A-Z][\w&-]*\s+){1,6}(?:Agreement|AGREEMENT|Contract|CONTRACT|Amendment|AMENDMENT|Addendum|ADDENDUM|Deed|DEED))\b/

/** How far into the document the preamble's title is looked for, in characters. */
const PREAMBLE_TITLE_CHARS = 3_000

/** The title read from the preamble, in title case, with its span; null when none. */
function preambleTitle(content: string): { value: string; start: number; end: number } | null {
  const m = PREAMBLE_TITLE.exec(content.slice(0, PREAMBLE_TITLE_CHARS))
  const name = m?.[1]
  if (!m || !name) return null
  const start = m.index + m[0].indexOf(name)
  const value = name
    .replace(/\s+/g, ' ')
    .toLowerCase()
    .replace(/(^|\s)(\p{L})/gu, (_, space: string, letter: string) => space + letter.toUpperCase())
  return { value, start, end: start + name.length }
}

/** The sentence from its operative verb's actor to the first qualification, at most SUBJECT_WORDS words. */
export function subjectPhrase(sentence: string): string {
  const text = flat(sentence).replace(
    /^(?:\(?[\dA-Za-z]{1,3}[.)]\s*)+(?:[A-Z][\w ]{0,40}\.\s+)?/,
    '',
  )
  const at = text.search(PURPOSE)
  if (at < 0) return ''
  // The actor: up to four words before the verb ("Licensor hereby grants", "The Company appoints").
  const before = text.slice(0, at).split(' ').filter(Boolean)
  const actor = before
    .slice(-4)
    .join(' ')
    .replace(/^.*?(?=\b(?:the\s+)?[A-Z])/, '')
  const rest = text.slice(at)
  const cut = rest.search(SUBJECT_END)
  const words = (cut > 0 ? rest.slice(0, cut) : rest).replace(/[.,\s]+$/, '').split(' ')
  const phrase = `${actor ? `${actor} ` : ''}${words.slice(0, SUBJECT_WORDS).join(' ')}`
  return words.length > SUBJECT_WORDS ? `${phrase} …` : phrase
}

function listNames(names: readonly string[]): string {
  if (names.length <= 2) return names.join(' and ')
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1] ?? ''}`
}

/** The parties with their roles ("Acme Inc. (Licensor)"), each name cited. */
export function partiesLine(input: SheetInput): LineFinding {
  const { parties } = input.keyTerms
  if (parties.length === 0) return null
  return {
    value: parties.map(describeParty).join('; '),
    citations: distinctQuotes(parties.map((p) => quote(input.content, p))),
  }
}

function describeParty(party: Party): string {
  const label = party.role ?? party.definedTerm?.text
  return label && label !== party.name ? `${party.name} (${label})` : party.name
}

/** A date line from a key term: its ISO value, cited by the passage it was read from. */
export function dateLine(input: SheetInput, which: 'agreementDate' | 'effectiveDate'): LineFinding {
  const term = input.keyTerms[which]
  if (!term) return null
  return { value: term.value, citations: [quote(input.content, term)] }
}

/** Where disputes go: courts with jurisdiction, a venue, or arbitration. */
const VENUE =
  /\b(?:exclusive\s+|non-exclusive\s+)?jurisdiction\s+of\s+the\b|\bcourts?\s+(?:of|in|located\s+in|sitting\s+in)\b|\bvenue\b|\barbitrat\w*\b|\bsubmit\s+to\s+the\b/i
const ARBITRATION_RULES =
  /\b(?:ICC|AAA|JAMS|LCIA|UNCITRAL|SIAC|HKIAC|CIETAC|American\s+Arbitration\s+Association|International\s+Chamber\s+of\s+Commerce)\b/
const COURT_PLACE =
  /\bcourts?\s+(?:of|in|located\s+in|sitting\s+in)\s+((?:the\s+)?(?:[A-Z][\w.]*(?:,?\s+|\s+of\s+)){0,5}[A-Z][\w.]*)/

/** Governing law and venue: the jurisdiction chosen and the courts or arbitration, cited. */
export function lawLine(input: SheetInput): LineFinding {
  const law = input.keyTerms.governingLaw
  const venue = sentencesWith(input, VENUE)[0]
  const parts: string[] = []
  const cites: (QuotedSpan | null)[] = []
  if (law) {
    parts.push(`${law.value} law`)
    cites.push(quote(input.content, law))
  }
  if (venue) {
    const text = flat(venue.text)
    if (/\barbitrat/i.test(text)) {
      const rules = ARBITRATION_RULES.exec(text)?.[0]
      parts.push(`arbitration${rules ? ` (${rules})` : ''}`)
    } else {
      const place = COURT_PLACE.exec(text)?.[1]
      parts.push(
        place ? `courts of ${place.replace(/^the\s+/i, '').replace(/[.,]+$/, '')}` : 'courts named',
      )
    }
    cites.push(venue)
  }
  if (parts.length === 0) return null
  return { value: parts.join('; '), citations: distinctQuotes(cites) }
}
