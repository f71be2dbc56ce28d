/**
 * A contract's dates and term: agreement date, effective date, expiration date (stated, computed
 * from "for a period of N years", or "perpetual"), renewal term and the notice that stops a
 * renewal. Rules follow drafting conventions, not any file; each value carries the passage it was
 * read from.
 */
import type { KeyTerm, QuotedSpan, Span } from '../types'
import { contractDatesIn } from './contract-dates'
import { DURATION_SOURCE, durationFrom, formatDuration, type Duration } from './dates'

/** How far into the document the preamble (agreement date) is looked for, in characters. */
const PREAMBLE_CHARS = 5_000

/** How far from the end the signature blocks are looked for a date, in characters. */
const SIGNATURE_CHARS = 4_000

/** Words before a date that make it the date of the agreement ("dated", "as of", "made on"). */
const AGREEMENT_DATE_CUE =
  /\b(?:dated|as\s+of|made|entered|executed|effective|this|date|on)\b[^.]{0,100}$/i

/** Words before a date that make it the start or end of the term or a deadline, not the agreement's date. */
const TERM_START =
  /\b(?:(?:begin|commence|start)s?\s+(?:on\s+|as\s+of\s+)?|(?:until|through|ending\s+on|expir\w*\s+on|concluding|on\s+or\s+(?:after|before)|prior\s+to)\s+)$/i

/** Words before a date that make it the date of some other document the contract refers to. */
const OTHER_DOCUMENT =
  /\b(?:original|prior|existing|previous|underlying|that\s+certain|amend(?:s|ing|ed)|supersed\w*|pursuant\s+to|under\s+the|(?:master|license|supply|purchase|credit|loan|merger)\s+agreement\s+dated|filed|source:|10-[kq]|8-k)\b[^.]{0,100}$|\b(?:a|an|certain|said|such)\s+(?:[\w-]+\s+){0,8}(?:agreement|contract|lease|note)\s*,?\s+dated\s+(?:as\s+of\s+)?$|\bto\s+(?:the|that)\s+(?:[\w&-]+\s+){0,6}(?:agreement|contract)\b(?:\s*\([^)]{0,60}\))?\s*,?\s+(?:dated|entered\s+into\s+on|made\s+on)\s+(?:as\s+of\s+)?$/i

/** Sentences about what happens after the term ends: never the source of the expiration date. */
const POST_TERM =
  /\b(?:after|following|upon|post-?)\s*(?:the\s+)?(?:any\s+)?(?:termination|expiration|expiry|end|term\s+of\s+this)\b|\bnon-?compet\w*|\bsell[\s-]?off\b|\bsurviv\w*|\bnot\s+(?:to\s+)?(?:compete|solicit)|\bthereafter\s+for\b|\bconfidential\w*|\bwarrant\w*|\binsurance\b|\bpayment\b|\brecords?\b/i

/**
 * The agreement date: the first preamble date introduced by "dated", "as of", "made on" …, not
 * the date of another agreement and not a filing footer ("Source: …"); else the first date of the
 * preamble; else a date in the signature blocks ("Date: …", "Dated: …").
 */
export function findAgreementDate(content: string): KeyTerm | null {
  const head = content.slice(0, PREAMBLE_CHARS)
  const all = contractDatesIn(head, 0)
  const candidates = all.filter((date, i) => {
    const lineStart = head.lastIndexOf('\n', date.start) + 1
    const previousEnd = i > 0 ? (all[i - 1]?.end ?? 0) : 0
    const before = head.slice(Math.max(lineStart - 200, previousEnd, 0), date.start)
    return !/^\s*source:/i.test(head.slice(lineStart, date.start)) && !OTHER_DOCUMENT.test(before)
  })
  const cued = candidates.find((date) => {
    const before = head.slice(Math.max(0, date.start - 120), date.start)
    return AGREEMENT_DATE_CUE.test(before) && !TERM_START.test(before)
  })
  // A letter's dateline ("AGENCY AGREEMENT\n\nMay 14, 2014\n\n…") dates it, before any cue.
  const dateline = candidates.find((date) => isDateline(head, date))
  const chosen = dateline && (!cued || dateline.start < cued.start) ? dateline : cued
  if (chosen) return { value: chosen.value, start: chosen.start, end: chosen.end }
  // "IN WITNESS WHEREOF … this 20th day of March 2020" outweighs a preamble date without a cue
  // (often the start of the term); a signatory's "Date:" does not.
  const witnessed = signatureDate(content, true)
  if (witnessed) return witnessed
  // Without a cue, the first date that is not the end of a term or a deadline.
  const first = candidates.find(
    (date) => !TERM_START.test(head.slice(Math.max(0, date.start - 60), date.start)),
  )
  if (first) return { value: first.value, start: first.start, end: first.end }
  return signatureDate(content, false)
}

/** A date alone on its line (or after "Date:"), as a letter or a cover page dates itself. */
function isDateline(text: string, date: Span): boolean {
  const lineStart = text.lastIndexOf('\n', date.start - 1) + 1
  const lineEnd = text.indexOf('\n', date.end)
  return (
    /^\s*(?:dated?\s*:?\s*)?$/i.test(text.slice(lineStart, date.start)) &&
    /^\s*$/.test(text.slice(date.end, lineEnd < 0 ? text.length : lineEnd))
  )
}

/**
 * The latest date that dates a signature in the signature blocks (see isSignatureDate), or only
 * the testimonium's ("IN WITNESS WHEREOF … as of …") when `testimoniumOnly`; null when none.
 */
function signatureDate(content: string, testimoniumOnly: boolean): KeyTerm | null {
  // The signature blocks: each signatory may date their signature; the agreement is made when the
  // last one signs, so the latest date counts.
  const tailStart = Math.max(PREAMBLE_CHARS, content.length - SIGNATURE_CHARS)
  const tail = content.slice(tailStart)
  const signed = contractDatesIn(tail, tailStart).filter((date) =>
    testimoniumOnly
      ? /\bwhereof\b[^.]{0,150}$/i.test(content.slice(Math.max(0, date.start - 200), date.start))
      : isSignatureDate(content, date),
  )
  const latest = signed.reduce<(typeof signed)[number] | null>(
    (best, date) => (best === null || date.value > best.value ? date : best),
    null,
  )
  return latest ? { value: latest.value, start: latest.start, end: latest.end } : null
}

/**
 * Whether a date in the signature blocks dates a signature: labelled ("Date:", "Dated:", "signed
 * on", "IN WITNESS WHEREOF … as of"), or standing alone in a column ("Jane Roe    1/9/02",
 * a line of its own) instead of inside a sentence. Filing footers ("Source: …") never do.
 */
function isSignatureDate(content: string, date: Span): boolean {
  const lineStart = content.lastIndexOf('\n', date.start - 1) + 1
  if (/^\s*source\s*:/i.test(content.slice(lineStart, date.start))) return false
  const before = content.slice(Math.max(0, date.start - 200), date.start)
  if (OTHER_DOCUMENT.test(before.slice(before.lastIndexOf('.') + 1))) return false
  if (
    /\b(?:date|dated|signed)\s*:?\s*$|\bas\s+of\s+(?:this\s+|the\s+)?$|\bwhereof\b[^.]{0,150}$|\bsignature\b[^.\n]{0,80}\bon\s+$/i.test(
      before,
    )
  )
    return true
  // A column: only spaces back to the previous gap, and that gap not after another label
  // ("Contract end:  4-1-08").
  const cells = before.split(/\n| {2,}|\t/)
  const cell = cells.pop() ?? before
  const label = /:\s*$/.test(cells.pop() ?? '')
  const after = content.slice(date.end, date.end + 3)
  // "Hamburg, November 19, 2012": a place may open the dateline.
  return (
    /^\s*(?:\p{Lu}[\p{L}.' -]{1,30},\s*)?$/u.test(cell) &&
    !label &&
    /^(?:\s*$|\s*\n| {2,}|\t| [-_])/.test(after)
  )
}

/**
 * The effective date: a date defined as the "Effective Date" or introduced by "effective as of",
 * "commence(s) on", "as from", "beginning"; a term that takes effect on signing ("effective upon
 * execution", "the date first written above") starts on the agreement date.
 */
export function findEffectiveDate(
  sentences: readonly QuotedSpan[],
  agreementDate: KeyTerm | null,
): KeyTerm | null {
  for (const sentence of sentences) {
    if (
      !/\beffective|\b(?:commenc\w*|as\s+from|beginning|begins?|into\s+force|take[sn]?\s+effect)\b/i.test(
        sentence.text,
      )
    )
      continue
    if (POST_TERM.test(sentence.text) && !/["“]Effective\s*Date["”]/i.test(sentence.text)) continue
    for (const date of contractDatesIn(sentence.text, sentence.start)) {
      const rel = date.start - sentence.start
      const before = sentence.text.slice(Math.max(0, rel - 60), rel)
      const after = sentence.text.slice(
        rel + date.end - date.start,
        rel + date.end - date.start + 40,
      )
      if (
        /\b(?:effective(?:\s+(?:as\s+of|on|from|date\s*:?))?|commenc\w*(?:\s+(?:on|as\s+of|upon))?|as\s+from|beginning(?:\s+on)?|begins?\s+on|(?:come|comes|came)\s+into\s+(?:force|effect)(?:\s+(?:on|as\s+of|from))?|take[sn]?\s+effect(?:\s+(?:on|as\s+of|from))?)\s*(?:this\s+|the\s+)?$/i.test(
          before,
        ) ||
        // '"Effective Date" means July 15, 2005', 'The commencement date for this contract will be …'.
        /\b(?:effective|commencement)\s+date["”]?(?:\s+(?:for|of)\s+(?:this|the)\s+\w+)?\s*(?:means|shall\s+mean|is|will\s+be|shall\s+be)\s*:?\s*$/i.test(
          before,
        ) ||
        /^\W{0,6}(?:\(\s*)?(?:the\s+|this\s+)?["“]Effective\s*Date["”]/i.test(after)
      ) {
        return { value: date.value, start: sentence.start, end: sentence.end }
      }
    }
    if (
      agreementDate &&
      /["“]?Effective\s*Date["”]?|\beffective\s+(?:as\s+of|upon|on)\b|\bcommenc\w*\s+(?:up)?on\b/i.test(
        sentence.text,
      ) &&
      /\b(?:date\s+(?:first|hereof|of\s+(?:this\s+agreement|execution|signature))|first\s+(?:above\s+)?written|upon\s+(?:its\s+|the\s+)?(?:execution|signature|signing)|(?:fully\s+)?executed\s+by\s+both|date\s+(?:on\s+which|that|when)\s+this\s+agreement\s+is\s+(?:executed|signed))\b/i.test(
        sentence.text,
      )
    ) {
      return { value: agreementDate.value, start: sentence.start, end: sentence.end }
    }
  }
  return null
}

/** Sentences that renew or extend the term automatically or for further periods. */
export function isRenewalSentence(text: string): boolean {
  return (
    /\b(?:renew\w*|extend\w*|extension)\b/i.test(text) &&
    /\b(?:automatic\w*|successive|additional|further|unless|renewal\s+terms?|thereafter)\b/i.test(
      text,
    )
  )
}

/** The renewal sentences of a contract, in document order. */
export function renewalSentences(sentences: readonly QuotedSpan[]): QuotedSpan[] {
  return sentences.filter((s) => isRenewalSentence(s.text) && !POST_TERM_RENEWAL.test(s.text))
}

/** Renewal wording that is about a licence or another document, not this contract's term. */
const POST_TERM_RENEWAL =
  /\b(?:insurance|polic(?:y|ies)|permit|registration|letter\s+of\s+credit)\b/i

/** The length of each renewal period, e.g. "1 year" from "successive one (1) year periods". */
export function findRenewalTerm(renewals: readonly QuotedSpan[]): KeyTerm | null {
  const re = new RegExp(
    `(?:successive|additional|further|renewal|extension|consecutive|like|subsequent)\\s+(?:(?:renewal\\s+)?(?:terms?|periods?)\\s+of\\s+)?${DURATION_SOURCE}|${DURATION_SOURCE}\\s*(?:\\(\\s*\\d+\\s*\\)\\s*)?(?:renewal|extension|additional|successive)|(?:renew(?:ed)?|extend(?:ed)?)\\s+(?:automatically\\s+)?(?:for\\s+)?(?:a\\s+(?:further|period|term)\\s+(?:period\\s+)?(?:of\\s+)?)?${DURATION_SOURCE}`,
    'i',
  )
  const periodOf = new RegExp(`\\b(?:periods?|terms?|increments?)\\s+of\\s+${DURATION_SOURCE}`, 'i')
  for (const sentence of renewals) {
    const m = re.exec(sentence.text) ?? periodOf.exec(sentence.text)
    const duration = m
      ? (durationFrom(m, 1) ?? durationFrom(m, 5) ?? durationFrom(m, 9))
      : calendarPeriod(sentence.text)
    if (duration)
      return { value: formatDuration(duration), start: sentence.start, end: sentence.end }
  }
  return null
}

/** "annual periods", "year-to-year", "month-to-month basis": a renewal period named by a word. */
function calendarPeriod(text: string): Duration | null {
  if (
    /\b(?:annual|yearly)\s+(?:renewal\s+)?(?:periods?|terms?|basis|renewals?)\b|\byear[\s-]to[\s-]year\b/i.test(
      text,
    )
  )
    return { amount: 1, unit: 'year' }
  if (/\bmonth[\s-]to[\s-]month\b|\bmonthly\s+(?:periods?|terms?|basis)\b/i.test(text))
    return { amount: 1, unit: 'month' }
  return null
}

/**
 * The notice needed to stop a renewal, e.g. "90 days" from "unless either party gives at least
 * ninety (90) days' notice prior to the end of the then-current term", read from the renewal
 * sentence only (or a "non-renewal" sentence), never from any nearby "30 days".
 */
export function findNoticePeriod(
  renewals: readonly QuotedSpan[],
  sentences: readonly QuotedSpan[],
): KeyTerm | null {
  const re = new RegExp(
    `${DURATION_SOURCE}\\s*(?:'|’)?\\s*(?:\\(\\s*\\w+\\s*\\)\\s*)?(?:prior|before|in\\s+advance|advance|written\\s+notice|notice|preceding)`,
    'i',
  )
  const candidates = [
    ...renewals,
    ...sentences.filter((s) => /\bnon-?renewal\b|\bnot\s+to\s+renew\b/i.test(s.text)),
  ]
  for (const sentence of candidates) {
    if (!/\bnotice\b|\bnotif/i.test(sentence.text)) continue
    const m = re.exec(sentence.text)
    const duration = m ? durationFrom(m, 1) : null
    if (duration)
      return { value: formatDuration(duration), start: sentence.start, end: sentence.end }
  }
  return null
}
