/**
 * Rule-based key-term extraction for contracts: parties, dates, governing law, renewal term and
 * the notice period to stop a renewal. Field meanings follow CUAD v1's key-term columns (The
 * Atticus Project, Hendrycks et al. 2021, CC BY 4.0); the rules are written from general drafting
 * conventions (preambles, "governed by the laws of", "automatically renew"), not from any file.
 */
import type { KeyTerm, KeyTerms, QuotedSpan, Span } from '../types'
import { findParties } from './parties'
import { findExpirationDate } from './expiration-date'
import {
  findAgreementDate,
  findEffectiveDate,
  findNoticePeriod,
  findRenewalTerm,
  renewalSentences,
} from './term'

/** How far after a "governed by"-style cue the governing jurisdiction may be named, in characters. */
const LAW_WINDOW_CHARS = 320

/**
 * Jurisdictions by canonical name (as CUAD's "Governing Law-Answer" writes it), each with any
 * other spellings that name it in a choice-of-law clause.
 */
const JURISDICTIONS: readonly (readonly [canonical: string, ...aliases: string[]])[] = [
  ...[
    'Alabama',
    'Alaska',
    'Arizona',
    'Arkansas',
    'California',
    'Colorado',
    'Connecticut',
    'Delaware',
    'Florida',
    'Georgia',
    'Hawaii',
    'Idaho',
    'Illinois',
    'Indiana',
    'Iowa',
    'Kansas',
    'Kentucky',
    'Louisiana',
    'Maine',
    'Maryland',
    'Massachusetts',
    'Michigan',
    'Minnesota',
    'Mississippi',
    'Missouri',
    'Montana',
    'Nebraska',
    'Nevada',
    'New Hampshire',
    'New Jersey',
    'New Mexico',
    'New York',
    'North Carolina',
    'North Dakota',
    'Ohio',
    'Oklahoma',
    'Oregon',
    'Pennsylvania',
    'Rhode Island',
    'South Carolina',
    'South Dakota',
    'Tennessee',
    'Texas',
    'Utah',
    'Vermont',
    'Virginia',
    'Washington',
    'West Virginia',
    'Wisconsin',
    'Wyoming',
    'Puerto Rico',
    'Alberta',
    'British Columbia',
    'Manitoba',
    'New Brunswick',
    'Newfoundland and Labrador',
    'Nova Scotia',
    'Ontario',
    'Prince Edward Island',
    'Quebec',
    'Saskatchewan',
    'New South Wales',
    'Queensland',
    'Victoria',
    'Western Australia',
    'South Australia',
    'Tasmania',
    'Scotland',
    'Northern Ireland',
    'Hong Kong',
    'Singapore',
    'Macau',
    'Australia',
    'Austria',
    'Belgium',
    'Bermuda',
    'Brazil',
    'Canada',
    'Cayman Islands',
    'Chile',
    'China',
    'Colombia',
    'Cyprus',
    'Czech Republic',
    'Denmark',
    'Finland',
    'France',
    'Germany',
    'Greece',
    'Hungary',
    'Iceland',
    'India',
    'Indonesia',
    'Ireland',
    'Israel',
    'Italy',
    'Japan',
    'Kazakhstan',
    'Korea',
    'Luxembourg',
    'Malaysia',
    'Mexico',
    'Netherlands',
    'New Zealand',
    'Norway',
    'Papua New Guinea',
    'Peru',
    'Philippines',
    'Poland',
    'Portugal',
    'Russia',
    'Spain',
    'Sweden',
    'Switzerland',
    'Thailand',
    'Turkey',
    'United Arab Emirates',
    'Vietnam',
    'Argentina',
    'South Africa',
    'British Virgin Islands',
    'England',
  ].map((name) => [name] as const),
  ['District of Columbia', 'Washington, D.C.', 'Washington D.C.'],
  ['England and Wales', 'England & Wales'],
  ['United Kingdom', 'U.K.'],
  ['Taiwan', 'R.O.C', 'Republic of China'],
  ['United States', 'United States of America', 'U.S.A.'],
  ["People's Republic of China", 'People’s Republic of China', 'PRC', 'P.R.C.'],
]

/** Adjectives that name a jurisdiction's law when "law" follows them ("English law"). */
const ADJECTIVES: Readonly<Record<string, string>> = {
  english: 'England',
  chinese: 'China',
  german: 'Germany',
  french: 'France',
  dutch: 'Netherlands',
  swiss: 'Switzerland',
  israeli: 'Israel',
  japanese: 'Japan',
  irish: 'Ireland',
  indian: 'India',
  korean: 'Korea',
  singaporean: 'Singapore',
  canadian: 'Canada',
}

/** Federal or national names that give way to a state or province named in the same clause. */
const NATIONAL = new Set(['United States', 'Canada', 'United Kingdom', 'Australia'])

const CANONICAL_BY_ALIAS = new Map<string, string>([
  ...JURISDICTIONS.flatMap(([canonical, ...aliases]) =>
    [canonical, ...aliases].map((alias) => [alias.toLowerCase(), canonical] as const),
  ),
  ...Object.entries(ADJECTIVES),
])

/** Any jurisdiction alias as a whole word, longest first so "New York" beats "York". */
const JURISDICTION_RE = new RegExp(
  `(?<![\\p{L}\\p{N}])(${[...CANONICAL_BY_ALIAS.keys()]
    .sort((a, b) => b.length - a.length)
    .map((alias) => escapeRegExp(alias).replace(/ /g, '\\s+'))
    .join('|')})(?![\\p{L}\\p{N}])`,
  'giu',
)

/**
 * Phrases that choose a law for the contract, with a weight for how reliably they do. A cue's
 * jurisdiction is looked for in the cue itself ("the laws of Florida shall govern") and in the
 * rest of its clause ("governed by ... the laws of the State of New York").
 */
const LAW_CUES: readonly { re: RegExp; weight: number }[] = [
  { re: /\bgovern(?:ed|s)\b(?:\s+[\w,]+){0,12}?\s+(?:by|under|in\s+accordance)\b/gi, weight: 3 },
  { re: /\b(?:governing|choice\s+of|proper)\s+laws?\b/gi, weight: 3 },
  {
    re: /\b(?:laws?|legislation|regulations)\s+of\s+(?:the\s+)?[^.;]{1,60}?\s+(?:\([^)]{0,120}\)\s+)?(?:shall|will|to)\s+(?:exclusively\s+)?(?:govern|apply|control)\b/gi,
    weight: 3,
  },
  // Case-sensitive: "Applicable Law" is a cue as a heading, but "applicable law" is everywhere.
  { re: /\b(?:Applicable\s+Law|APPLICABLE\s+LAW)S?\b(?=\s*[.:\n—–-])/g, weight: 2 },
  { re: /\bcontrolled\s+by\b/gi, weight: 2 },
  {
    re: /\b(?:constru(?:ed|ction)|interpret(?:ed|ation)|enforced)\b(?:\s+\w+){0,4}?\s+(?:in\s+accordance\s+with|under|by|according\s+to|pursuant\s+to)/gi,
    weight: 2,
  },
  { re: /\bsubject\s+to\s+the\s+laws\b/gi, weight: 2 },
  { re: /\brequires?\s+(?:the\s+)?application\s+of\s+the\s+laws?\s+of\b/gi, weight: 2 },
  {
    re: /\b(?:in\s+accordance\s+with|under|pursuant\s+to|according\s+to)\s+the\s+(?:substantive\s+|internal\s+|domestic\s+)?laws?\s+of\b/gi,
    weight: 1,
  },
]

/** "The laws thereof", "the laws of such state": the jurisdiction was named earlier in the sentence. */
const BACK_REFERENCE =
  /\blaws?\s+(?:thereof|of\s+(?:such|that|said|this)\s+(?:state|jurisdiction|country|province))\b/i

/** Words near a cue that show it is about this contract, not about some other matter. */
const THIS_CONTRACT =
  /\bthis\s+(?:agreement|contract|amendment|guarant\w*|license|lease)\b|\bhere(?:under|in|of|to)\b/i

/** Jurisdictions named after these words describe a party's incorporation, not the contract's law. */
const INCORPORATION_CONTEXT =
  /\b(?:organi[sz]ed|incorporated|existing|formed|registered|established|chartered|located|offices?|resident)\b[^.;]{0,60}$/i

/** A jurisdiction names a law when "law(s) of" precedes it or "law" follows it ("New York law"). */
const LAW_BEFORE = /\b(?:laws?|legislation|regulations)\b[^.;]{0,80}$/i
const LAW_AFTER = /^(?:,\s*[A-Z][\w ]{1,30})?\s+(?:laws?|statutes)\b/i

/** Named statutes ("Delaware General Corporation Law", "General Business Law of the State of New York") are not choices of law. */
const STATUTE_BEFORE = /\b[A-Z][a-z]+\s+(?:Law|Act|Code)\s+of\s+(?:the\s+)?(?:State\s+of\s+)?$/
const STATUTE_AFTER =
  /^\s+(?:General|Uniform|Business|Corporations?|Franchise|Limited|Civil|Commercial|Securities|Revised)\b[\w\s]{0,40}\b(?:Law|Act|Code)\b/

/**
 * Extracts the key terms of a contract.
 *
 * `sentences` are document-ordered spans into `content` (segmentSentences); each term's span is
 * the sentence it was read from (a party's span is its name). Values are normalised: dates as ISO
 * `YYYY-MM-DD` (raw text when a date cannot be resolved), governing law as the jurisdiction's name
 * ("New York", "England and Wales"), durations as "<n> <unit>" ("1 year", "90 days"). Missing
 * terms are null. Pure, synchronous and linear in `content.length`; never throws.
 */
export function extractKeyTerms(content: string, sentences: readonly QuotedSpan[]): KeyTerms {
  const agreementDate = findAgreementDate(content)
  // A contract that states no other effective date takes effect on its date.
  const effectiveDate = findEffectiveDate(sentences, agreementDate) ?? agreementDate
  const renewals = renewalSentences(sentences)
  return {
    parties: findParties(content),
    agreementDate,
    effectiveDate,
    expirationDate: findExpirationDate(sentences, effectiveDate, agreementDate),
    governingLaw: findGoverningLaw(content, sentences),
    renewalTerm: findRenewalTerm(renewals),
    noticePeriod: findNoticePeriod(renewals, sentences),
  }
}

/**
 * The governing law: every choice-of-law cue proposes the jurisdiction its clause names (a state
 * or province preferred over its nation); the best-scored proposal wins, the later one on a tie
 * because the governing-law clause usually sits in the closing boilerplate.
 */
function findGoverningLaw(content: string, sentences: readonly QuotedSpan[]): KeyTerm | null {
  let best: { value: string; score: number; span: Span } | null = null
  for (const { re, weight } of LAW_CUES) {
    re.lastIndex = 0
    for (let cue = re.exec(content); cue !== null; cue = re.exec(content)) {
      const cueEnd = cue.index + cue[0].length
      const sentence = sentenceAt(sentences, cue.index) ?? { start: cue.index, end: cueEnd }
      const clause = clauseAfter(content, cueEnd)
      let value = jurisdictionIn(content, cue.index, cueEnd + clause.length)
      if (!value && BACK_REFERENCE.test(clause))
        value = jurisdictionIn(content, sentence.start, cue.index, false)
      if (!value) continue
      const context = content.slice(
        Math.max(sentence.start, cue.index - 150),
        cueEnd + clause.length,
      )
      const score =
        weight +
        (THIS_CONTRACT.test(context) ? 1 : 0) +
        (/\b(?:governing|applicable|choice\s+of)\s+law/i.test(context) ? 1 : 0) -
        (NATIONAL.has(value) ? 2 : 0)
      if (!best || score >= best.score)
        best = { value, score, span: { start: sentence.start, end: sentence.end } }
    }
  }
  return best ? { value: best.value, ...best.span } : null
}

/** The rest of the clause that starts at `from`: up to the sentence end, at most LAW_WINDOW_CHARS. */
function clauseAfter(content: string, from: number): string {
  const window = content.slice(from, from + LAW_WINDOW_CHARS)
  // Stop at the end of the clause: the next sentence may name a forum or an address. A blank line
  // alone does not end it: page breaks in extracted text fall inside sentences.
  const stop = window.search(/[.;](?:\s+[A-Z(]|\s*$)/)
  return stop >= 0 ? window.slice(0, stop) : window
}

/**
 * The jurisdiction that the choice-of-law passage content[from, to) names, or null. With
 * `lawWordNeeded` a mention counts only next to "law(s)"; a back-reference ("the laws thereof")
 * lifts that, since the word sits elsewhere.
 */
function jurisdictionIn(
  content: string,
  from: number,
  to: number,
  lawWordNeeded = true,
): string | null {
  const clause = content.slice(from, to)
  const found: string[] = []
  JURISDICTION_RE.lastIndex = 0
  for (let m = JURISDICTION_RE.exec(clause); m !== null; m = JURISDICTION_RE.exec(clause)) {
    const alias = (m[1] ?? '').replace(/\s+/g, ' ').toLowerCase()
    const canonical = CANONICAL_BY_ALIAS.get(alias)
    const before = content.slice(Math.max(0, from + m.index - 80), from + m.index)
    const after = content.slice(from + m.index + m[0].length, from + m.index + m[0].length + 60)
    if (!canonical || INCORPORATION_CONTEXT.test(before)) continue
    if (STATUTE_BEFORE.test(before) || STATUTE_AFTER.test(after)) continue
    const namesLaw = LAW_AFTER.test(after) || (!(alias in ADJECTIVES) && LAW_BEFORE.test(before))
    if (lawWordNeeded && !namesLaw) continue
    found.push(canonical)
  }
  return found.find((name) => !NATIONAL.has(name)) ?? found[0] ?? null
}

/** The sentence containing offset `at`, by binary search over document-ordered spans. */
function sentenceAt(sentences: readonly QuotedSpan[], at: number): Span | null {
  let lo = 0
  let hi = sentences.length - 1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    const s = sentences[mid]
    if (!s) break
    if (at < s.start) hi = mid - 1
    else if (at >= s.end) lo = mid + 1
    else return { start: s.start, end: s.end }
  }
  return null
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
