/** The deal sheet's covenant lines: restrictions on competition, IP, confidentiality. */
import type { QuotedSpan } from '../../types'
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

/** A confidentiality duty: "shall keep confidential", "shall not disclose any Confidential Information". */
const CONFIDENTIALITY =
  /\b(?:shall|will|agrees?\s+to)\s+(?:(?:hold|keep|maintain|treat)\b[^.]{0,80}\bconfiden\w*|not\s+(?:\w+\s+){0,3}disclose\b)|\bconfidential\s+information\b[^.]{0,120}\b(?:shall|will)\s+not\s+be\s+disclosed/i

/** How long it lasts: "for a period of five (5) years after". */
const LASTING = new RegExp(`\\bfor\\s+(?:a\\s+period\\s+of\\s+)?${DURATION_SOURCE}`, 'i')

/** Confidentiality: whether it binds both sides, how long it lasts, cited; null when absent. */
export function confidentialityLine(input: SheetInput): LineFinding {
  const duties = sentencesWith(input, CONFIDENTIALITY)
  const duty = duties[0]
  if (!duty) return null
  const mutual = duties.some((s) =>
    /\b(?:each|either)\s+party\b|\bthe\s+parties\b|\breceiving\s+party\b/i.test(s.text),
  )
  const lasting = duties.map((s) => ({ s, m: LASTING.exec(s.text) })).find((d) => d.m)
  const period = lasting?.m ? durationFrom(lasting.m, 1) : null
  const value = `${mutual ? 'mutual ' : ''}duty not to disclose${period ? `; lasts ${formatDuration(period)}` : ''}`
  return { value, citations: distinctQuotes([duty, lasting?.s]) }
}
