/**
 * Rule-based key-term extraction for contracts: parties, dates, governing law, renewal term and
 * the notice period to stop a renewal. Field meanings follow CUAD v1's key-term columns (The
 * Atticus Project, Hendrycks et al. 2021, CC BY 4.0); the rules are written from general drafting
 * conventions (preambles, "governed by the laws of", "automatically renew"), not from any file.
 */
import type { KeyTerm, KeyTerms, QuotedSpan, Span } from '../types'
import { findParties } from './parties'

/** How far into the document the preamble (parties, agreement date) is looked for, in characters. */
const PREAMBLE_CHARS = 4_000

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
    'Taiwan',
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
    re: /\blaws?\s+of\s+(?:the\s+)?[^.;]{1,60}?\s+(?:\([^)]{0,120}\)\s+)?(?:shall|will|to)\s+(?:exclusively\s+)?(?:govern|apply|control)\b/gi,
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
  { re: /\b(?:in\s+accordance\s+with|under|pursuant\s+to)\s+the\s+laws?\s+of\b/gi, weight: 1 },
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
const LAW_BEFORE = /\blaws?\b[^.;]{0,80}$/i
const LAW_AFTER = /^(?:,\s*[A-Z][\w ]{1,30})?\s+(?:laws?|statutes)\b/i

/** Named statutes ("Delaware General Corporation Law", "General Business Law of the State of New York") are not choices of law. */
const STATUTE_BEFORE = /\b[A-Z][a-z]+\s+(?:Law|Act|Code)\s+of\s+(?:the\s+)?(?:State\s+of\s+)?$/
const STATUTE_AFTER =
  /^\s+(?:General|Uniform|Business|Corporations?|Franchise|Limited|Civil|Commercial|Securities|Revised)\b[\w\s]{0,40}\b(?:Law|Act|Code)\b/

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
]
const MONTH_NAME =
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?'
const ORDINAL = '(\\d{1,2})\\s*(?:st|nd|rd|th)?'

/** Written dates: "May 8, 2014", "8th day of May, 2014", "8 May 2014", "5/8/2014", "2014-05-08". */
const DATE_RE = new RegExp(
  [
    `\\b${MONTH_NAME}\\s+${ORDINAL},?\\s+(\\d{4})\\b`,
    `\\b${ORDINAL}\\s+(?:day\\s+of\\s+)?${MONTH_NAME},?\\s+(?:in\\s+the\\s+year\\s+)?(\\d{4})\\b`,
    `\\b(\\d{1,2})/(\\d{1,2})/(\\d{4}|\\d{2})\\b`,
    `\\b(\\d{4})-(\\d{2})-(\\d{2})\\b`,
  ].join('|'),
  'gi',
)

const NUMBER_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  fifteen: 15,
  eighteen: 18,
  twenty: 20,
  thirty: 30,
  forty: 40,
  'forty-five': 45,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  'seventy-five': 75,
  eighty: 80,
  ninety: 90,
  'one hundred twenty': 120,
  'one hundred eighty': 180,
  a: 1,
  an: 1,
}

/** A duration: "one (1) year", "ninety (90) days", "12 months", "thirty days". */
const DURATION_SOURCE = `(?:(${Object.keys(NUMBER_WORDS)
  .sort((a, b) => b.length - a.length)
  .join(
    '|',
  )})\\s*(?:\\(\\s*(\\d+)\\s*\\))?|(\\d+))\\s*[- ]?\\s*(?:calendar\\s+|business\\s+|consecutive\\s+)?(years?|months?|weeks?|days?)\\b`

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
  const effectiveDate = findEffectiveDate(content, sentences, agreementDate)
  const renewal = findRenewalTerm(sentences)
  return {
    parties: findParties(content),
    agreementDate,
    effectiveDate,
    expirationDate: findExpirationDate(sentences, effectiveDate ?? agreementDate),
    governingLaw: findGoverningLaw(content, sentences),
    renewalTerm: renewal,
    noticePeriod: findNoticePeriod(sentences),
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
  // Stop at the end of the clause: the next sentence may name a forum or an address.
  const stop = window.search(/[.;](?:\s+[A-Z(]|\s*$)|\n\s*\n/)
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

/** The first date in the preamble introduced by "dated", "as of", "made ... on", "day of" etc. */
function findAgreementDate(content: string): KeyTerm | null {
  const head = content.slice(0, PREAMBLE_CHARS)
  for (const date of datesIn(head, 0)) {
    const before = head.slice(Math.max(0, date.start - 120), date.start)
    if (/\b(?:dated|as\s+of|made|entered|executed|effective|this|date|on)\b[^.]*$/i.test(before)) {
      return { value: date.value, start: date.start, end: date.end }
    }
  }
  return null
}

/**
 * The effective date: a date defined as the "Effective Date" or introduced by "effective as of";
 * when the Effective Date is defined as the date of signing ("the date first written above") it is
 * the agreement date.
 */
function findEffectiveDate(
  content: string,
  sentences: readonly QuotedSpan[],
  agreementDate: KeyTerm | null,
): KeyTerm | null {
  for (const sentence of sentences) {
    if (!/\beffective\b/i.test(sentence.text)) continue
    for (const date of datesIn(sentence.text, sentence.start)) {
      const rel = date.start - sentence.start
      const around = sentence.text.slice(Math.max(0, rel - 60), rel + date.end - date.start + 40)
      if (/\beffective\s+(?:as\s+of|on|from|date)\b|["“]Effective\s+Date["”]/i.test(around)) {
        return { value: date.value, start: sentence.start, end: sentence.end }
      }
    }
    if (
      agreementDate &&
      /["“]Effective\s+Date["”]|\beffective\s+as\s+of\b/i.test(sentence.text) &&
      /\b(?:date\s+(?:first|hereof|of\s+this\s+agreement)|first\s+(?:above\s+)?written)\b/i.test(
        sentence.text,
      )
    ) {
      return { value: agreementDate.value, start: sentence.start, end: sentence.end }
    }
  }
  return null
}

/**
 * The expiration date: "expire on <date>", "until <date>", else "<n> years from the Effective
 * Date" added to `anchor` (ISO), else "perpetual" for a term without end.
 */
function findExpirationDate(
  sentences: readonly QuotedSpan[],
  anchor: KeyTerm | null,
): KeyTerm | null {
  const termSentences = sentences.filter((s) =>
    /\b(?:term|expire|expiration|continue|remain\s+in\s+(?:full\s+)?(?:force|effect))\b/i.test(
      s.text,
    ),
  )
  for (const sentence of termSentences) {
    for (const date of datesIn(sentence.text, sentence.start)) {
      const before = sentence.text.slice(
        Math.max(0, date.start - sentence.start - 60),
        date.start - sentence.start,
      )
      if (
        /\b(?:until|through|expir\w*|terminat\w*|end(?:ing)?)\s+(?:on\s+|at\s+|of\s+)?(?:\w+\s+){0,3}$/i.test(
          before,
        )
      ) {
        return { value: date.value, start: sentence.start, end: sentence.end }
      }
    }
  }
  const durationAfter = new RegExp(
    `\\b(?:term|period)\\s+of\\s+${DURATION_SOURCE}\\s+(?:\\w+\\s+){0,3}(?:from|after|following|commencing|beginning)`,
    'i',
  )
  for (const sentence of termSentences) {
    const m = durationAfter.exec(sentence.text)
    const duration = m ? durationFrom(m, 1) : null
    if (duration && anchor && /^\d{4}-\d{2}-\d{2}$/.test(anchor.value)) {
      return {
        value: addDuration(anchor.value, duration),
        start: sentence.start,
        end: sentence.end,
      }
    }
  }
  const perpetual = termSentences.find(
    (s) => /\b(?:in\s+)?perpetu(?:al|ity)\b/i.test(s.text) && /\bterm\b/i.test(s.text),
  )
  return perpetual ? { value: 'perpetual', start: perpetual.start, end: perpetual.end } : null
}

/** Sentences that renew or extend the term automatically or for further periods. */
function isRenewalSentence(text: string): boolean {
  return (
    /\b(?:renew\w*|extend\w*|extension)\b/i.test(text) &&
    /\b(?:automatic\w*|successive|additional|further|unless|renewal\s+terms?|thereafter)\b/i.test(
      text,
    )
  )
}

/** The length of each renewal period, e.g. "1 year" from "successive one (1) year periods". */
function findRenewalTerm(sentences: readonly QuotedSpan[]): KeyTerm | null {
  const re = new RegExp(
    `(?:successive|additional|further|renewal|extension|consecutive|like)\\s+(?:(?:renewal\\s+)?(?:terms?|periods?)\\s+of\\s+)?${DURATION_SOURCE}|${DURATION_SOURCE}\\s+(?:renewal|extension|additional|successive)`,
    'i',
  )
  for (const sentence of sentences) {
    if (!isRenewalSentence(sentence.text)) continue
    const m = re.exec(sentence.text)
    const duration = m ? (durationFrom(m, 1) ?? durationFrom(m, 5)) : null
    if (duration)
      return { value: formatDuration(duration), start: sentence.start, end: sentence.end }
  }
  return null
}

/** The notice needed to stop a renewal, e.g. "90 days" from "at least ninety (90) days prior to". */
function findNoticePeriod(sentences: readonly QuotedSpan[]): KeyTerm | null {
  const re = new RegExp(
    `${DURATION_SOURCE}\\s*(?:'|’)?\\s*(?:\\(\\s*\\w+\\s*\\)\\s*)?(?:prior|before|in\\s+advance|advance|written\\s+notice|notice|preceding)`,
    'i',
  )
  for (const sentence of sentences) {
    if (!isRenewalSentence(sentence.text) && !/\bnon-?renewal\b/i.test(sentence.text)) continue
    if (!/\bnotice\b|\bnotif/i.test(sentence.text)) continue
    const m = re.exec(sentence.text)
    const duration = m ? durationFrom(m, 1) : null
    if (duration)
      return { value: formatDuration(duration), start: sentence.start, end: sentence.end }
  }
  return null
}

interface Duration {
  amount: number
  unit: 'year' | 'month' | 'week' | 'day'
}

/** Reads a DURATION_SOURCE match whose four groups start at `first`; null when absent. */
function durationFrom(m: RegExpExecArray, first: number): Duration | null {
  const word = m[first]
  const digits = m[first + 1] ?? m[first + 2]
  const unit = m[first + 3]
  if (!unit) return null
  const amount = digits ? Number(digits) : word ? NUMBER_WORDS[word.toLowerCase()] : undefined
  if (amount === undefined || !Number.isFinite(amount) || amount <= 0) return null
  return { amount, unit: unit.toLowerCase().replace(/s$/, '') as Duration['unit'] }
}

function formatDuration({ amount, unit }: Duration): string {
  return `${amount} ${unit}${amount === 1 ? '' : 's'}`
}

/** ISO date `iso` plus a duration, in UTC calendar arithmetic. */
function addDuration(iso: string, { amount, unit }: Duration): string {
  const date = new Date(`${iso}T00:00:00Z`)
  if (unit === 'year') date.setUTCFullYear(date.getUTCFullYear() + amount)
  else if (unit === 'month') date.setUTCMonth(date.getUTCMonth() + amount)
  else date.setUTCDate(date.getUTCDate() + amount * (unit === 'week' ? 7 : 1))
  return date.toISOString().slice(0, 10)
}

/** Dates written in `text` (which starts at `offset` in the document), with ISO values. */
function datesIn(text: string, offset: number): (Span & { value: string })[] {
  const dates: (Span & { value: string })[] = []
  DATE_RE.lastIndex = 0
  for (let m = DATE_RE.exec(text); m !== null; m = DATE_RE.exec(text)) {
    const iso = m[1]
      ? isoDate(m[3], monthIndex(m[1]), m[2])
      : m[5]
        ? isoDate(m[6], monthIndex(m[5]), m[4])
        : m[7]
          ? isoDate(m[9], Number(m[7]), m[8])
          : isoDate(m[10], Number(m[11]), m[12])
    if (iso)
      dates.push({ value: iso, start: offset + m.index, end: offset + m.index + m[0].length })
  }
  return dates
}

function monthIndex(name: string): number {
  const lower = name.toLowerCase().slice(0, 3)
  return MONTHS.findIndex((month) => month.startsWith(lower)) + 1
}

/** `YYYY-MM-DD` for a valid calendar date (two-digit years pivot at 50), else null. */
function isoDate(year: string | undefined, month: number, day: string | undefined): string | null {
  if (!year || !day) return null
  let y = Number(year)
  if (year.length === 2) y += y < 50 ? 2000 : 1900
  const d = Number(day)
  const date = new Date(Date.UTC(y, month - 1, d))
  if (month < 1 || month > 12 || date.getUTCDate() !== d || date.getUTCMonth() !== month - 1)
    return null
  return `${String(y).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(d).padStart(2, '0')}`
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
