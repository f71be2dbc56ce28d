/** The deal sheet's covenant lines: restrictions on competition, IP, confidentiality. */
import type { Party, QuotedSpan } from '../../types'
import { partyLabel } from '../reading/named-parties'
import { readClause } from '../reading/read-clause'
import { DURATION_SOURCE, durationFrom, formatDuration } from '../dates'
import {
  clausesOf,
  distinctQuotes,
  isOperative,
  sentencesWith,
  type LineFinding,
  type SheetInput,
} from './sheet-input'

/**
 * A sentence that frees a party instead of restricting it ("Nothing in this Agreement shall
 * prevent the Recipient from developing competing products"): never a restriction.
 */
const FREEDOM =
  /\bnothing\b[^.]{0,160}\b(?:prevent|prohibit|restrict|limit|preclude|restrain)\w*|\bfree\s+to\b|\bshall\s+not\s+(?:be\s+)?(?:prevent|prohibit|restrict|preclude)\w*\b[^.]{0,80}\bfrom\b/i

/** Restrictions, each with the words that show it. */
const RESTRICTIONS: readonly [name: string, category: string, re: RegExp][] = [
  [
    'exclusivity',
    'Exclusivity',
    /\b(?<!non-)(?<!non\s)exclusive(?:ly)?\b(?![^.]{0,20}\bjurisdiction)|\bsole\s+(?:and\s+exclusive\s+)?(?:supplier|distributor|source|provider)\b/i,
  ],
  [
    'non-compete',
    'Non-Compete',
    /\b(?:shall|will|agrees?)\s+not\b[^.]{0,80}\b(?:compet\w+|engage\s+in\s+(?:any\s+)?(?:business|activit)\w*[^.]{0,60}\bcompet\w+)|\bnon-?compet\w+\s+(?:covenant|obligation|restriction|period|agreement)/i,
  ],
  [
    'non-solicit of employees',
    'No-Solicit Of Employees',
    /\b(?:solicit|hire|employ|recruit)\w*\b[^.]{0,80}\b(?:employees?|personnel|staff)\b/i,
  ],
  [
    'non-solicit of customers',
    'No-Solicit Of Customers',
    /\bsolicit\w*\b[^.]{0,80}\b(?:customers?|clients?)\b/i,
  ],
]

/** A licence's own exclusivity ("non-exclusive license") is not a restriction on competition. */
const NON_EXCLUSIVE_ONLY = /\bnon-?\s?exclusive\b/i

/** Exclusivity, non-compete and non-solicit covenants found, each cited; null when none. */
export function restrictionsLine(input: SheetInput): LineFinding {
  const parts: string[] = []
  const cites: QuotedSpan[] = []
  for (const [name, category, re] of RESTRICTIONS) {
    // The detected clause is the better citation; the wording alone only when none was detected.
    const clause = clausesOf(input, [category]).find(
      (c) => isOperative(c) && !FREEDOM.test(c.text) && !onlyNonExclusive(c.text),
    )
    const sentence =
      clause ??
      sentencesWith(input, re).find(
        (s) => !FREEDOM.test(s.text) && !(name === 'exclusivity' && onlyNonExclusive(s.text)),
      )
    if (!sentence) continue
    parts.push(name)
    cites.push(sentence)
  }
  if (parts.length === 0) return null
  return { value: parts.join('; '), citations: distinctQuotes(cites) }
}

function onlyNonExclusive(text: string): boolean {
  return (
    NON_EXCLUSIVE_ONLY.test(text) &&
    !/\b(?<!non-)(?<!non\s)exclusive\b/i.test(text.replace(/non-?\s?exclusive/gi, ''))
  )
}

/** Ownership of IP: "shall own all right, title and interest", "hereby assigns … inventions". */
const OWNERSHIP =
  /\b(?:shall\s+(?:be\s+the\s+(?:sole\s+)?(?:and\s+exclusive\s+)?property\s+of|(?:solely\s+)?own|remain\s+the\s+(?:sole\s+)?(?:and\s+exclusive\s+)?property\s+of|vest\s+in)|hereby\s+assigns?|(?:retains?|owns?)\s+all\s+right,?\s+title\s+and\s+interest)\b[^.]{0,300}\b(?:intellectual\s+property|patents?|copyrights?|trade\s?marks?|inventions?|work\s+product|deliverables|know-how|technology|software|materials)\b|\b(?:intellectual\s+property|inventions?|work\s+product|deliverables)\b[^.]{0,200}\b(?:shall\s+(?:be|remain)\s+the\s+(?:sole\s+)?(?:and\s+exclusive\s+)?property\s+of|shall\s+(?:be\s+)?(?:owned|vest)|(?:is|are)\s+(?:hereby\s+)?assigned)/i

/** A licence granted: "hereby grants to Licensee a non-exclusive licence". */
const GRANT =
  /\bgrants?\b[^.]{0,160}\blicen[cs]e\b|\blicen[cs]e\b[^.]{0,40}\bis\s+(?:hereby\s+)?granted\b/i

/** IP ownership and licences, each cited; null when neither is stated. */
export function ipLine(input: SheetInput): LineFinding {
  const parts: string[] = []
  const cites: QuotedSpan[] = []
  const owner =
    clausesOf(input, ['Ip Ownership Assignment']).find(
      (c) => isOperative(c) && OWNERSHIP.test(c.text),
    ) ??
    sentencesWith(input, OWNERSHIP)[0] ??
    clausesOf(input, ['Ip Ownership Assignment', 'Joint Ip Ownership']).find((c) => isOperative(c))
  if (owner) {
    parts.push(
      /\bassign/i.test(owner.text)
        ? 'IP assigned'
        : /\bjoint(?:ly)?\b/i.test(owner.text)
          ? 'IP jointly owned'
          : 'IP ownership stated',
    )
    cites.push(owner)
  }
  const grant =
    clausesOf(input, ['License Grant']).find((c) => isOperative(c)) ??
    sentencesWith(input, GRANT)[0]
  if (grant) {
    const flat = grant.text.replace(/\s+/g, ' ')
    const scope = /\bnon-?\s?exclusive\b/i.test(flat)
      ? 'non-exclusive '
      : /\bexclusive\b/i.test(flat)
        ? 'exclusive '
        : ''
    const extras = [
      /\bnon-?transferable\b/i.test(flat) ? 'non-transferable' : null,
      /\b(?:irrevocable|perpetual)\b/i.test(flat) ? 'perpetual or irrevocable' : null,
      /\broyalty-?\s?free\b/i.test(flat) ? 'royalty-free' : null,
    ].filter((e): e is string => e !== null)
    parts.push(`${scope}licence granted${extras.length > 0 ? ` (${extras.join(', ')})` : ''}`)
    cites.push(grant)
  }
  if (parts.length === 0) return null
  return { value: parts.join('; '), citations: distinctQuotes(cites) }
}

/** Words that put a sentence about confidential information (prefilter before reading it). */
const CONFIDENTIAL =
  /\b[Cc]onfiden\w*|\bCONFIDEN|\b[Pp]roprietary\s+[Ii]nformation\b|\b[Ss]ecre(?:t|cy)\b|\bin\s+trust\b|\b[Nn]on-?[Dd]isclosure\b|\bEvaluation\s+Material\b|\bCI\b/

/** Verbs of letting information out: a prohibition on one is a duty not to disclose. */
const DISCLOSE =
  /^(?:disclose|divulge|reveal|communicate|disseminate|release|publish|reproduce|make|permit|allow|furnish|transfer|sell|share|copy|duplicate|use|utilize|utilise|exploit)$/

/** Verbs of guarding information: an obligation of one is a duty of confidence. */
const GUARD =
  /^(?:hold|keep|maintain|treat|protect|safeguard|preserve|take|exercise|afford|ensure|observe|restrict|limit|use)$/

/** "undertake … not to disclose", "agree … not to communicate or to divulge": a listed prohibition. */
const NOT_TO_DISCLOSE =
  /\bnot\s+to\s+(?:\w+\s+){0,3}(?:disclose|divulge|communicate|reveal|disseminate|publish)\b|\b(?:shall|will|may)\s+not\s+(?:otherwise\s+)?be\s+(?:disclosed|divulged|revealed|communicated)\b/i

/**
 * Duties the reading may miss, tested when the sentence is no permission: a list item under "The
 * Receiving Party shall:" ("(b) not disclose …"), "agrees that it will treat … as confidential",
 * "use the same degree of care … to protect".
 */
const DUTY_WORDING =
  /^\W*(?:(?:\d+(?:\.\d+)*|\(?[a-z]{1,3}\)|[a-z]\.)\s*)?(?:to\s+)?not\s+(?:to\s+)?(?:\w+\s+){0,2}(?:disclose|divulge|reveal|communicate|disseminate|publish)\b|\b(?:shall|will|must|agrees?\s+to)\s+(?:(?:hold|keep|maintain|treat|preserve)\b[^.]{0,80}\b(?:confiden\w*|secre\w*|in\s+trust)|not\s+(?:\w+\s+){0,3}(?:disclose|divulge))|\bdegree\s+of\s+care\b[^.]{0,120}\bprotect/i

/** The receiving side named by role when no party is: "the Receiving Party", "Recipient". */
const RECEIVER = /\b(?:the\s+)?(receiving\s+part(?:y|ies)|recipients?|disclosee|confidant)\b/i

/** A use restriction: "shall use … solely for the Purpose", "only for the purpose of". */
const USE_ONLY =
  /\buse\w*\b[^.;]{0,120}\b(?:solely|only|exclusively)\s+(?:for|in\s+connection\s+with)\b|\bnot\s+(?:to\s+)?use\b[^.;]{0,120}\b(?:except|other\s+than)\b/i

/** How long it lasts: "for a period of five (5) years", "shall survive for three years". */
const LASTING = new RegExp(
  `\\bfor\\s+(?:a\\s+(?:further\\s+)?period\\s+of\\s+)?${DURATION_SOURCE}`,
  'i',
)

/** Duty sentences read, at most: an NDA states its core duty early. */
const MAX_DUTIES = 12

/**
 * Confidentiality, read from the sentences that impose it (readClause): a prohibition on
 * disclosing or an obligation to hold in confidence, with whom it binds ("mutual" when every
 * party), whether use is limited to a purpose, and how long it lasts, each cited; null when no
 * sentence imposes one. A permission to disclose ("may disclose to its advisers"), an
 * exclusion ("shall not apply to information that …") and leave not to disclose ("is not obliged
 * to disclose") are not duties.
 */
export function confidentialityLine(input: SheetInput): LineFinding {
  const parties = input.keyTerms.parties
  const duties: Duty[] = []
  // A lead-in ("The Receiving Party shall:") binds the list items after it ("(b) not disclose …").
  let lead: Bound | null = null
  for (const sentence of input.sentences) {
    if (duties.length >= MAX_DUTIES) break
    if (!isOperative(sentence)) continue
    const text = sentence.text
    const leadIn = LEAD_IN.exec(text)
    const item = LIST_ITEM.test(text)
    if (!leadIn && !item) lead = null
    const head = leadIn ? text.slice(0, leadIn.index + leadIn[0].length) : null
    const listed = leadIn ? text.slice(leadIn.index + leadIn[0].length) : item ? text : null
    if (head) lead = bearerOf(readClause(head, parties), head)
    if (!CONFIDENTIAL.test(text) && !(listed && lead && DUTY_WORDING.test(listed))) continue
    const duty =
      listed && lead && (DUTY_WORDING.test(listed) || USE_ONLY.test(listed))
        ? lead
        : readDuty(text, parties)
    if (duty) duties.push({ sentence, ...duty })
  }
  const first = duties[0]
  if (!first) return null
  const every = duties.some((d) => d.every)
  const bound = [...new Set(duties.flatMap((d) => d.who))].map((n) => partyLabel(n, parties))
  const bearer =
    every || bound.length > 1 ? 'mutual duty' : bound[0] ? `${bound[0]}'s duty` : 'duty'
  const use = duties.find((d) => USE_ONLY.test(d.sentence.text))
  // In a confidentiality agreement every obligation is one of confidence, so its survival is.
  const nda = NDA_NAME.test(input.content.slice(0, 3_000))
  const lasting = [
    ...duties.map((d) => d.sentence),
    ...sentencesWith(input, CONFIDENTIAL, /\bsurviv|\bperiod\s+of\b|\bexpir/i),
    ...(nda ? sentencesWith(input, /\bobligations?\b[^.]{0,120}\bsurviv/i) : []),
  ]
    .map((s) => ({ s, m: LASTING.exec(s.text) }))
    .find((d) => d.m)
  const period = lasting?.m ? durationFrom(lasting.m, 1) : null
  const value = [
    `${bearer} not to disclose`,
    use ? 'use only for the stated purpose' : null,
    period ? `lasts ${formatDuration(period)}` : null,
  ]
    .filter(Boolean)
    .join('; ')
  // The line says "not to disclose": cite the duty that says so when one does.
  const core = duties.find((d) => /\bdisclos|\bdivulg|\breveal/i.test(d.sentence.text)) ?? first
  return { value, citations: distinctQuotes([core.sentence, use?.sentence, lasting?.s]) }
}

/** "Receiving Party", "Recipient": the role as a label, capitalised. */
function receiverLabel(role: string): string {
  const words = role.toLowerCase().replace(/\s+/g, ' ').replace(/ies$/i, 'y').replace(/s$/i, '')
  return words.replace(/(^|\s)(\p{L})/gu, (_, space: string, c: string) => space + c.toUpperCase())
}

/** Whom a duty binds: party names, or every party. */
interface Bound {
  who: string[]
  every: boolean
}

interface Duty extends Bound {
  sentence: QuotedSpan
}

/** "The Receiving Party shall:", "Recipient agrees to:": a list of duties follows the colon. */
const LEAD_IN =
  /\b(?:shall|will|must|agrees?(?:\s+to)?|undertakes?(?:\s+to)?|(?:undertakes?|agrees?)\s+and\s+(?:agrees?|undertakes?)(?:\s+to)?)\s*:/i

/** A list item: "(b) …", "b) …", "2.1.3 …". */
const LIST_ITEM = /^\W*(?:\(?[a-z]{1,3}\)|[a-z]\.\s|\d+(?:\.\d+){1,3}\s)/i

/** A confidentiality agreement's name near the top. */
const NDA_NAME = /\bnon-?\s?disclosure\b|\bconfidentiality\s+agreement\b|\bsecrecy\s+agreement\b/i

/** Whom a reading binds, by party or, failing that, by the receiving role the text names. */
function bearerOf(reading: ReturnType<typeof readClause>, text: string): Bound {
  if (reading.who.length > 0 || reading.everyParty)
    return { who: reading.who, every: reading.everyParty }
  const receiver = RECEIVER.exec(text)?.[1]
  return { who: receiver ? [receiverLabel(receiver)] : [], every: false }
}

/** One sentence read as a duty of confidence, with whom it binds; null when it imposes none. */
function readDuty(text: string, parties: readonly Party[]): Bound | null {
  const reading = readClause(text, parties)
  if (reading.freedom || reading.effect === 'deletes') return null
  const action = reading.action ?? ''
  const duty =
    (reading.modality === 'must-not' && DISCLOSE.test(action)) ||
    (reading.modality === 'must' && GUARD.test(action)) ||
    ((reading.modality === 'must' || reading.modality === 'must-not') &&
      NOT_TO_DISCLOSE.test(text)) ||
    (reading.modality !== 'may' && reading.modality !== 'need-not' && DUTY_WORDING.test(text))
  if (!duty) return null
  return bearerOf(reading, text)
}
