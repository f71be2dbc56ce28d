/**
 * Dates and durations as contracts write them, read into ISO 8601 dates and "<n> <unit>"
 * durations. Tolerates text extraction damage: ordinals split by a space ("1s t day of October"),
 * underscores and dashes between the parts of a date.
 */
import type { Span } from '../types'

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
/** A day number, with its ordinal suffix even when extraction split it ("1s t", "15t h"). */
const ORDINAL = '_*(\\d{1,2})\\s*(?:s\\s?t|n\\s?d|r\\s?d|t\\s?h)?'

/** What may stand between the parts of a written date: spaces, a comma or full stop, underscores, dashes. */
const GAP = '[\\s,._\\-–—]*'

/**
 * Written dates: "May 8, 2014", "8th day of May, 2014", "8 May 2014", "5/8/2014", "5-8-14",
 * "2014-05-08". Numeric dates are read month first (the US convention of most filings) unless
 * the first number cannot be a month ("25-12-20" is 25 December).
 */
export const DATE_RE = new RegExp(
  [
    `\\b${MONTH_NAME}\\s+${ORDINAL}${GAP}(\\d{4})\\b`,
    `(?<![\\d/])${ORDINAL}\\s+(?:day\\s+of[\\s_\\-–—]+)?${MONTH_NAME}${GAP}(?:in\\s+the\\s+year\\s+)?(\\d{4})\\b`,
    `(?<![\\d/])(\\d{1,2})[/-](\\d{1,2})[/-](\\d{4}|\\d{2})(?![\\d/-])`,
    `\\b(\\d{4})-(\\d{2})-(\\d{2})\\b`,
  ].join('|'),
  'gi',
)

/** Numbers written as words in durations ("ninety (90) days"); "a"/"an" count as one. */
export const NUMBER_WORDS: Readonly<Record<string, number>> = {
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
  fourteen: 14,
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
export const DURATION_SOURCE = `(?:((?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)-)?(?:${Object.keys(
  NUMBER_WORDS,
)
  .sort((a, b) => b.length - a.length)
  .join(
    '|',
  )}))\\s*(?:\\(\\s*(\\d+)\\s*\\))?|(\\d+))\\s*[- ]?\\s*(?:calendar\\s+|business\\s+|consecutive\\s+|contract\\s+|full\\s+)?(years?|months?|weeks?|days?)\\b`

export interface Duration {
  amount: number
  unit: 'year' | 'month' | 'week' | 'day'
}

/** Reads a DURATION_SOURCE match whose four groups start at `first`; null when absent. */
export function durationFrom(m: RegExpExecArray, first: number): Duration | null {
  const word = m[first]
  const digits = m[first + 1] ?? m[first + 2]
  const unit = m[first + 3]
  if (!unit) return null
  const amount = digits ? Number(digits) : word ? numberWord(word.toLowerCase()) : undefined
  if (amount === undefined || !Number.isFinite(amount) || amount <= 0) return null
  return { amount, unit: unit.toLowerCase().replace(/s$/, '') as Duration['unit'] }
}

/** "thirty-six" → 36: a number word, or tens and units joined by a hyphen; undefined when neither. */
function numberWord(word: string): number | undefined {
  const known = NUMBER_WORDS[word]
  if (known !== undefined) return known
  const [tens, units] = word.split('-')
  const t = tens ? NUMBER_WORDS[tens] : undefined
  const u = units ? NUMBER_WORDS[units] : undefined
  return t !== undefined && u !== undefined && u < 10 ? t + u : undefined
}

export function formatDuration({ amount, unit }: Duration): string {
  return `${amount} ${unit}${amount === 1 ? '' : 's'}`
}

/** ISO date `iso` plus a duration, in UTC calendar arithmetic. */
export function addDuration(iso: string, { amount, unit }: Duration): string {
  const date = new Date(`${iso}T00:00:00Z`)
  if (unit === 'year') date.setUTCFullYear(date.getUTCFullYear() + amount)
  else if (unit === 'month') date.setUTCMonth(date.getUTCMonth() + amount)
  else date.setUTCDate(date.getUTCDate() + amount * (unit === 'week' ? 7 : 1))
  return date.toISOString().slice(0, 10)
}

/** Dates written in `text` (which starts at `offset` in the document), with ISO values. */
export function datesIn(text: string, offset: number): (Span & { value: string })[] {
  const dates: (Span & { value: string })[] = []
  DATE_RE.lastIndex = 0
  for (let m = DATE_RE.exec(text); m !== null; m = DATE_RE.exec(text)) {
    const iso = m[1]
      ? isoDate(m[3], monthIndex(m[1]), m[2])
      : m[5]
        ? isoDate(m[6], monthIndex(m[5]), m[4])
        : m[7]
          ? Number(m[7]) > 12
            ? isoDate(m[9], Number(m[8]), m[7])
            : isoDate(m[9], Number(m[7]), m[8])
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
export function isoDate(
  year: string | undefined,
  month: number,
  day: string | undefined,
): string | null {
  if (!year || !day) return null
  let y = Number(year)
  if (year.length === 2) y += y < 50 ? 2000 : 1900
  const d = Number(day)
  const date = new Date(Date.UTC(y, month - 1, d))
  if (month < 1 || month > 12 || date.getUTCDate() !== d || date.getUTCMonth() !== month - 1)
    return null
  return `${String(y).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(d).padStart(2, '0')}`
}
