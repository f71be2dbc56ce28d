/**
 * The expiration date of a contract's initial term. Every sentence that states the term of the
 * contract ("This Agreement shall commence on … and continue for three (3) years", "The term of
 * this Agreement is …", "Term: …") is read for an end: a stated date, an anniversary, a duration
 * counted from a start, or no end at all ("until terminated"). Rules follow drafting conventions,
 * not any file.
 */
import type { KeyTerm, QuotedSpan } from '../types'
import { addDuration, datesIn, DURATION_SOURCE, durationFrom } from './dates'
import { contractDatesIn } from './contract-dates'

/** What the term is said of: the contract itself or its term ("the Initial Term", "This OMA"). */
const SUBJECT =
  /\b(?:(?:the\s+)?(?:initial\s+|original\s+)?term\s+of\s+(?:this|the)\s+(?:[\w-]+\s+){0,3}?(?:agreement|contract)|(?:this|the)\s+(?:[\w/-]+\s+){0,3}?(?:agreement|contract|amendment|attachment|addendum|schedule|oma|engagement|franchise|appointment|promotion|arrangement|sponsorship|licen[cs]e|cooperation|program(?:me)?)|the\s+(?:initial\s+|original\s+|effective\s+)?term|it)\b/gi

/** A verb that states how long the subject lasts; it must follow the subject. */
const TERM_VERB =
  /^[^.;]{0,160}?\b(?:commenc\w*|begin\w*|beginning|continu\w*|remain\w*|be\s+(?:in\s+(?:full\s+)?(?:force|effect)|effective|valid|for)|(?:is|be)\s+(?:for\s+)?(?:an?\s+)?(?:(?:initial\s+)?term|period|duration)|expir\w*|terminat\w*|end(?:s|ing)?|conclud\w*|come\s+into|take\s+effect|ha(?:ve|s)\s+(?:an?\s+)?(?:initial\s+)?(?:term|duration)|run|extend(?:s|ed)?\s+(?:until|to|through)|(?:is|be|shall\s+be)\s+(?:(?:for\s+)?(?:an?\s+)?(?:period|term)\s+of\s+)?(?:[\w-]+\s+){0,2}\(?\d*\)?\s*(?:years?|months?))\b/i

/** A right to end the contract ("may be terminated", "can terminate"), not how long it lasts. */
const RIGHT_TO_END = /\b(?:may|can|might)\s+(?:\w+\s+){0,2}?(?:be\s+)?terminat\w*$/i

/** What may precede the subject of a term statement: the sentence start, a heading, a comma, "and". */
const CLAUSE_START = /(?:^|[,;:.)]|\band|\bthat|\bhereby)\s*(?:[\d.()]{1,8}\s*)?$/i

/** "It shall be effective on … and shall have a duration of two years": only a term verb may follow "It". */
const IT_TERM_VERB =
  /^\s+(?:shall|will)\s+(?:be\s+(?:effective|valid|in\s+(?:full\s+)?(?:force|effect))|commence|begin|continue|remain|expire|terminate|come\s+into|take\s+effect|have\s+a\s+(?:term|duration))\b/i

/** A sentence about what follows the initial term ("After the Initial Term, this Agreement shall …"). */
const AFTER_THE_TERM =
  /\b(?:after|following|upon|beyond|at\s+the\s+end\s+of)\s+(?:the\s+)?(?:expir\w+\s+of\s+(?:the\s+)?)?(?:initial|original)\s+term\b/i

/** A sentence that names its own period the Term: "… through June 30, 2021 (the "Initial Term")". */
const DEFINES_THE_TERM =
  /\(\s*(?:the\s+|such\s+period,?\s+)?["“](?:initial\s+|original\s+)?term["”]/i

/** A heading that states the term: "Term: …", "2. Term. …", "TERM OF AGREEMENT …", "Expiration Date: …". */
const TERM_HEADING =
  /^\s*(?:(?:section|article|clause)\s*)?(?:[\d.()]{1,8}\s*)?(?:(?:initial\s+)?terms?(?:\s+of\s+(?:this\s+|the\s+)?(?:agreement|contract|execution|project))?|expiration\s+date|expiry\s+date|termination\s+date|end\s+date|contract\s+(?:period|end))\s*(?:[:.\-–—]|\n)|^\s*(?:[\d.()]{1,8}\s*)?TERM(?:\s+OF\s+[A-Z]+(?:\s+[A-Z]+)?)?\s/i

/** Definitions of terms that state the contract's term ("Term" means …); others are skipped. */
const DEFINITION =
  /^\s*(?:[\d.()a-z]{1,8}\s+)?(?:["“]([^"”]{1,40})["”]\s*(?:means|shall\s+mean|is|:)|((?:Initial\s+|Original\s+)?Term)\s+(?:means|shall\s+mean)\b)/i
const TERM_DEFINITION =
  /^(?:(?:initial|original|agreement|contract)\s+)?term$|^(?:expiration|expiry|termination|end)\s+date$|^(?:contract|service|promotion|agreement)\s+period$/i

/** Sentences about periods after the term or about other duties: never the source of the term. */
const TAIL_SENTENCE =
  /\bnon-?compet\w*|\bnon-?solicit\w*|\bnot\s+(?:to\s+)?(?:compete|solicit|hire)\b|\bsell[\s-]?off\b|\bsurviv\w*|\bconfidential\w*|\bwarrant(?:y|ies)\b|\binsurance\b|\brecords?\b|\baudit\b|\bbooks\b/i

/** A cue before a date that makes it the end of the term. */
const END_CUE =
  /\b(?:until|till|through|thru|to|expir\w*|terminat\w*|end(?:s|ing|ed)?|conclud\w*|later\s+than|extended\s+to)\s+(?:on\s+|at\s+|of\s+|with\s+|as\s+of\s+)?(?:[\w()]+\s+){0,4}$|^\s*(?:expiration|expiry|termination|end)\s+date\s*[:\-–—]?\s*$|["“](?:expiration|expiry|termination|end)\s+date["”]\s+(?:means|shall\s+mean|is)\s*:?\s*$|[\d]\s*[-–—]\s*$/i

/** An end verb just before the date wins over a start cue ("shall end as of December 31"). */
const END_VERB_BEFORE =
  /\b(?:end|ends|expire|expires|terminate|terminates|conclude|concludes)\s+(?:on\s+|as\s+of\s+|at\s+)?(?:the\s+)?$/i

/** A cue before a date that makes it the start of the term. */
const START_CUE =
  /\b(?:from|commenc\w*|beginning|begin\w*|effective|start\w*|as\s+of|come\s+into\s+(?:force|effect)|take\s+effect|dated)\s+(?:on\s+|as\s+of\s+|from\s+|upon\s+|with\s+)?(?:the\s+)?(?:(?:day|date)\s+of\s+)?(?:\w+\s+){0,2}$/i

/** "until the fifth (5th) anniversary of the Effective Date", "the four-year anniversary". */
const ANNIVERSARY = new RegExp(
  `\\b(?:(?:the\\s+)?(?:day|date)\\s+(?:immediately\\s+)?(prior\\s+to|before|preceding)\\s+)?the\\s+(?:(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|fifteenth|twentieth|twenty-fifth|thirtieth)|(\\d{1,2})\\s*(?:s\\s?t|n\\s?d|r\\s?d|t\\s?h)|${DURATION_SOURCE.replace(/\(years\?\|months\?\|weeks\?\|days\?\)/, '(years?)')})\\s*(?:\\(\\s*\\d{1,2}\\s*(?:s\\s?t|n\\s?d|r\\s?d|t\\s?h)?\\s*\\)\\s*)?(?:year\\s+)?anniversary(?:\\s+date)?(?:\\s+(?:of|thereof|after|following|from)\\b\\s*(?:the\\s+)?([\\w\\s-]{0,40}))?`,
  'i',
)

/** A duration that states the term's length, after a cue that makes it the term. */
const TERM_DURATION = new RegExp(
  `\\b(?:for|be|is|duration\\s+of|term\\s+of|period\\s+of|(?:term|period)\\s*:)\\s+(?:(?:a|an|the|at\\s+least|initial|period|term|of|for|fixed|minimum)\\s+){0,5}${DURATION_SOURCE}|\\b(?:end|expire|terminate|conclude)(?:s|ing)?\\s+(?:(?:on|upon)\\s+the\\s+(?:later|earlier)\\s+of\\s+(?:\\(\\w{1,4}\\)\\s*)?)?${DURATION_SOURCE}`,
  'gi',
)

/** What a duration is counted from, when the sentence says so. */
const COUNTED_FROM =
  /^\W{0,4}(?:\(\s*\w+\s*\)\s*)?(?:[\w-]+\s+)?(?:\(\s*(?:the\s+)?["“][^"”()]{1,30}["”]\s*\)\s*)?(?:from\s+and\s+after|on\s+and\s+after|from|after|following|commencing(?:\s+(?:on|from|with))?|beginning(?:\s+on)?|starting(?:\s+(?:on|from))?|of|as\s+of|with)\s+(?:and\s+including\s+)?(?:the\s+)?([\w\s"“”-]{0,60})/i

/** Starts a duration may be counted from without a stated date: the effective or agreement date. */
const EFFECTIVE_START =
  /^(?:["“]?effective\s+date|commencement\s+date|execution|signing|(?:date\s+(?:of\s+)?)?(?:the\s+)?(?:last\s+)?(?:execution|signature)|date\s+(?:hereof|first|signed|of\s+(?:this|the)\s+(?:agreement|document|contract)|on\s+which\s+this)|this\s+(?:agreement|contract)|start|beginning|thereof|date\s+(?:it|this)\s)/i

/** "until the end of 2006", "until the end of the current calendar year": the last day of a year. */
const YEAR_END =
  /\b(?:until|through|to)\s+(?:the\s+)?end\s+of\s+(?:(?:calendar\s+)?(?:year\s+)?(\d{4})\b|the\s+(?:current|then[\s-]current)\s+calendar\s+year\b)/i

/** A term with no fixed end: "until terminated", "indefinitely", "in perpetuity", "for so long as". */
const NO_END =
  /\bperpetu(?:al|ally|ity)\b|\bindefinite(?:ly)?\b|\buntil\s+(?:it\s+is\s+|so\s+|otherwise\s+|such\s+time\s+as\s+(?:it\s+is\s+)?)?terminated\b|\buntil\s+(?:the\s+)?termination\b|\buntil\s+(?:either|one|a|the)\s+part(?:y|ies)\b|\bunless\s+(?:and\s+until\s+)?(?:sooner\s+|earlier\s+)?terminated\b[^.]{0,80}$|\b(?:for\s+)?(?:so|as)\s+long\s+as\b|\buntil\s+(?:the\s+)?(?:termination|expiration|completion|end)\s+of\b|\bnot\s+(?:be\s+)?terminable\b/i

/** Where renewal wording starts: the initial term is stated before it. */
const RENEWAL_WORDING =
  /\b(?:(?:shall|will|may)\s+(?:be\s+)?(?:automatically\s+)?(?:renew|extend(?!(?:s|ed)?\s+(?:until|to|through|for\s+(?:a|an|the)\s+(?:initial\s+)?(?:period|term)\s+of)\b))\w*|automatic(?:ally)?\s+(?:renew|extend)\w*|renewal|successive|extension)\b/i

/**
 * A leading caption of a few capitalised words after an optional number, ended by a full stop,
 * a colon or a run of spaces: "9. Term and Renewal. ", "3. Term and Renewal  ". Its words name
 * the section, so "Renewal" in it does not end the term statement that follows (decision 0129).
 */
const LEADING_CAPTION =
  /^\s*(?:(?:section|article|clause)\s*)?(?:[\d.()]{1,8}\s*)?[A-Z][\w'’]*(?:\s+(?:and|of|the|&|[A-Z][\w'’]*)){0,5}(?:\s*[.:]\s+|\s{2,})(?=\S)/

/** Where the caption, if any, ends (0 without one). */
function captionEnd(text: string): number {
  return LEADING_CAPTION.exec(text)?.[0].length ?? 0
}

/**
 * The renewal wording that ends the initial term's statement, searched after a leading caption;
 * its index is into `text`.
 */
function renewalIn(text: string): { index: number } | null {
  const from = captionEnd(text)
  const found = RENEWAL_WORDING.exec(text.slice(from))
  return found ? { index: from + found.index } : null
}

/** How surely a reading states the end: a stated date 3, a computed date 2, no end 1. */
type ReadingKind = 1 | 2 | 3

interface Reading {
  value: string
  /** strength × 4 + kind: the sentence's strength first, then how the end was read. */
  rank: number
  sentence: QuotedSpan
}

/**
 * The expiration date of the initial term, with the sentence it rests on: a stated end date
 * ("until December 31, 2021", "Expiration Date: …"); else an anniversary or a duration ("for a
 * period of three (3) years") counted from the start the sentence names, or from `effective`
 * (ISO) or `agreement` (ISO) when it names the effective date or none; else "perpetual" when the
 * term runs "until terminated", indefinitely or while some state lasts. Sentences that state the
 * contract's term ("This Agreement shall …", "The term of this Agreement …", a "Term" heading or
 * definition) outrank any other sentence with an end date; sentences about periods after the term
 * (non-compete tails, sell-off periods, survival) and renewal-only sentences are never read.
 * Null when no sentence states the term. Linear in the number of sentences.
 */
export function findExpirationDate(
  sentences: readonly QuotedSpan[],
  effective: KeyTerm | null,
  agreement: KeyTerm | null,
): KeyTerm | null {
  const anchors = {
    effective: isoOf(effective) ?? isoOf(agreement),
    agreement: isoOf(agreement) ?? isoOf(effective),
  }
  let best: Reading | null = null
  for (const sentence of sentences) {
    const strength = termStrength(sentence.text)
    if (strength === 0 || (best && strength * 4 + 3 <= best.rank)) continue
    // Renewal wording ends the initial term's statement: "… for one (1) year, and shall renew …".
    const renewal = renewalIn(sentence.text)
    const text = renewal ? sentence.text.slice(0, renewal.index) : sentence.text
    const reading = readTerm(text, anchors, strength)
    if (!reading) continue
    const rank = strength * 4 + reading.kind
    if (!best || rank > best.rank) best = { value: reading.value, rank, sentence }
  }
  return best ? { value: best.value, start: best.sentence.start, end: best.sentence.end } : null
}

/**
 * How surely a sentence states the contract's term: 3 when the contract or its term is the
 * subject of a term verb, or a "Term" heading or definition leads it; 1 when it only says
 * something "expires"; 0 otherwise.
 */
function termStrength(text: string): number {
  const definition = DEFINITION.exec(text)
  if (definition) return TERM_DEFINITION.test((definition[1] ?? definition[2] ?? '').trim()) ? 3 : 0
  // What follows the initial term is said after its statement ("… seven years and will renew for
  // annual periods after the Initial Term"): only a sentence that starts there is about it.
  const renewal = renewalIn(text)
  if (AFTER_THE_TERM.test(renewal ? text.slice(0, renewal.index) : text)) return 0
  if (TERM_HEADING.test(text)) return 3
  if (TAIL_SENTENCE.test(text)) return 0
  if (DEFINES_THE_TERM.test(text)) return 3
  const caption = captionEnd(text)
  SUBJECT.lastIndex = 0
  for (let m = SUBJECT.exec(text); m !== null; m = SUBJECT.exec(text)) {
    // The contract must be the subject of its clause, not an object ("may terminate this Agreement").
    const opens =
      m.index === caption || CLAUSE_START.test(text.slice(Math.max(0, m.index - 40), m.index))
    if (!opens) continue
    const rest = text.slice(m.index + m[0].length)
    const verb = m[0].toLowerCase() === 'it' ? IT_TERM_VERB.exec(rest) : TERM_VERB.exec(rest)
    // "This Agreement may be terminated by either party …" grants a right to end it early: a
    // termination clause, not the term's statement (its dates are notice or plan dates).
    if (verb && !RIGHT_TO_END.test(verb[0])) return 3
  }
  return /\bexpir(?:e|es|ed|ation)\b/i.test(text) ? 1 : 0
}

/** The end the sentence gives its term, as an ISO date or "perpetual"; null when it gives none. */
function readTerm(
  text: string,
  anchors: { effective: string | null; agreement: string | null },
  strength: number,
): { value: string; kind: ReadingKind } | null {
  const dates = contractDatesIn(text, 0)
  let start: string | null = null
  for (const date of dates) {
    const before = text.slice(Math.max(0, date.start - 80), date.start)
    if (END_CUE.test(before) && (!START_CUE.test(before) || END_VERB_BEFORE.test(before)))
      return { value: date.value, kind: 3 }
    if (!start && START_CUE.test(before)) start = date.value
  }
  if (strength < 3) return null
  const yearEnd = YEAR_END.exec(text)
  if (yearEnd) {
    const year = yearEnd[1] ?? (start ?? anchors.effective)?.slice(0, 4)
    if (year) return { value: `${year}-12-31`, kind: 3 }
  }
  const anniversary = ANNIVERSARY.exec(text)
  if (anniversary) {
    const years =
      ordinalNumber(anniversary[2] ?? '') ||
      Number(anniversary[3] ?? 0) ||
      durationFrom(anniversary, 4)?.amount ||
      0
    const from = anchorFor((anniversary[8] ?? '').trim(), start, anchors)
    if (years > 0 && from) {
      const end = addDuration(from, { amount: years, unit: 'year' })
      return {
        value: anniversary[1] ? addDuration(end, { amount: -1, unit: 'day' }) : end,
        kind: 2,
      }
    }
  }
  TERM_DURATION.lastIndex = 0
  for (let m = TERM_DURATION.exec(text); m !== null; m = TERM_DURATION.exec(text)) {
    const duration = durationFrom(m, 1) ?? durationFrom(m, 5) ?? durationFrom(m, 9)
    if (!duration) continue
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 100)
    const before = text.slice(0, m.index)
    if (
      isTail(before, after) ||
      /\b(?:additional|further|successive|renewal|extension)\s+$/i.test(before)
    )
      continue
    const counted = COUNTED_FROM.exec(after)
    const from = counted
      ? anchorFor((counted[1] ?? '').trim(), start, anchors)
      : (start ?? anchors.effective)
    if (from) return { value: addDuration(from, duration), kind: 2 }
    if (counted) return null
  }
  return NO_END.test(text) ? { value: 'perpetual', kind: 1 } : null
}

/**
 * Whether a duration is a period after the term, not the term: notice ("thirty (30) days' prior
 * notice"), "after termination", or "thereafter" once the sentence spoke of "during the Term".
 */
function isTail(before: string, after: string): boolean {
  if (
    /^\s*(?:'|’)?\s*(?:\(\w+\)\s*)?(?:prior|advance|written|notice|in\s+advance|before)\b/i.test(
      after,
    )
  )
    return true
  if (
    /^\W*(?:after|following|upon)\s+(?:the\s+|its\s+|such\s+|any\s+)?(?:termination|expiration|expiry|end)\b/i.test(
      after,
    )
  )
    return true
  return (
    /^\W*thereafter\b/i.test(after) &&
    /\b(?:during|throughout)\b|\bterm\s+of\s+this\s+\w+\s*,?\s+and\b/i.test(before)
  )
}

/**
 * The ISO start a duration or anniversary is counted from: the date the sentence gives as its
 * start, else the agreement date for "the date hereof" / "this Agreement", else the effective
 * date for "the Effective Date" or nothing named; null for any other event ("the Launch Date").
 */
function anchorFor(
  named: string,
  start: string | null,
  anchors: { effective: string | null; agreement: string | null },
): string | null {
  const cleaned = named.replace(/^(?:(?:as\s+of|on|from|with|upon|the)\s+|["“])+/i, '')
  // "begin on February 1, 1998 and end on the first anniversary of the date of this Agreement":
  // an anchor the sentence names as the agreement's date is that date, not the stated start.
  if (AGREEMENT_ANCHOR.test(cleaned) && anchors.agreement) return anchors.agreement
  if (start) return start
  if (cleaned === '') return anchors.effective
  if (AGREEMENT_ANCHOR.test(cleaned)) return anchors.agreement
  if (EFFECTIVE_START.test(cleaned)) return anchors.effective
  const dated = datesIn(cleaned, 0)[0]
  return dated && dated.start < 12 ? dated.value : null
}

/** An anchor named as the agreement's own date: "the date hereof", "the date of this Agreement". */
const AGREEMENT_ANCHOR =
  /^(?:date\s+(?:hereof|of\s+(?:this|the)\s+(?:agreement|document|contract))|this\s+(?:agreement|contract)|execution|signing)/i

function isoOf(term: KeyTerm | null): string | null {
  return term && /^\d{4}-\d{2}-\d{2}$/.test(term.value) ? term.value : null
}

const ORDINAL_WORDS: Readonly<Record<string, number>> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
  eleventh: 11,
  twelfth: 12,
  fifteenth: 15,
  twentieth: 20,
  'twenty-fifth': 25,
  thirtieth: 30,
}

function ordinalNumber(word: string): number {
  return ORDINAL_WORDS[word.toLowerCase()] ?? 0
}
