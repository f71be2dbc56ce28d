/**
 * Dates that can be the contract's own: every written date except those that belong to a law,
 * another agreement or a schedule the contract cites ("the Belgian Act of 13 April 1995",
 * "Regulation (EU) 2016/679 of 27 April 2016, effective from 25 May 2018", "Schedule A dated
 * January 5, 2020"). Written from drafting conventions, not from any file.
 */
import type { Span } from '../types'
import { datesIn } from './dates'

/**
 * A law or public instrument named with a capital ("Act", "Royal Decree", "Directive"), not this
 * contract ("this Order"). Case-sensitive: "the laws of New York" names no instrument.
 */
const INSTRUMENT =
  /(?<!\b(?:this|This|THIS)\s)\b(?:Act|Law|Code|Decree|Directive|Regulation|Ordinance|Statute|Treaty|Convention|Gesetz|Loi|Wet)\b/g

/** Words that bring the text back to this contract between an instrument and a date. */
const THIS_CONTRACT =
  /\b(?:this|the\s+present)\s+(?:Agreement|Contract|Amendment|Addendum)\b|\bhere(?:of|to|by|under|in)\b|\bthe\s+Effective\s+Date\b/i

/** Another document dated right before the date: "Schedule A dated", "the Purchase Order of". */
const OTHER_PAPER =
  /\b(?:Schedule|Exhibit|Annex|Appendix|Attachment|Statement\s+of\s+Work|SOW|Purchase\s+Order|Order\s+Form|Work\s+Order|Addendum|Amendment|Invoice|Letter)\b(?:\s+(?:No\.?\s*)?[\w.-]{1,12})?(?:\s*\([^)]{0,40}\))?,?\s+(?:dated|of|issued\s+on)\s+(?:as\s+of\s+)?(?:the\s+)?$/i

/** How far back an instrument's name may stand from a date it governs, in characters. */
const INSTRUMENT_WINDOW = 100

/**
 * Whether the date at `at` in `text` belongs to a cited law, agreement or schedule: an
 * instrument is named in the same sentence within INSTRUMENT_WINDOW characters before it, with
 * no mention of this contract in between; or another document is "dated" just before it.
 */
export function isCitedDate(text: string, at: number): boolean {
  const window = text.slice(Math.max(0, at - INSTRUMENT_WINDOW), at)
  // Only the date's own sentence counts: cut at the last full stop that ends one.
  const sentenceStart = Math.max(
    ...[...window.matchAll(/[.;]\s+(?=[A-Z(])|\n\s*\n/g)].map((m) => m.index + m[0].length),
    0,
  )
  const own = window.slice(sentenceStart)
  if (OTHER_PAPER.test(own)) return true
  const mentions = [...own.matchAll(INSTRUMENT)]
  const last = mentions[mentions.length - 1]
  return last !== undefined && !THIS_CONTRACT.test(own.slice(last.index))
}

/** datesIn without the dates that belong to cited instruments (see isCitedDate). */
export function contractDatesIn(text: string, offset: number): (Span & { value: string })[] {
  return datesIn(text, offset).filter((date) => !isCitedDate(text, date.start - offset))
}
