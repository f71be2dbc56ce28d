/** The period of notice a passage states, in days, read from the passage itself. */
import { NUMBER_WORDS } from './dates'

/** Articles that NUMBER_WORDS reads as one. */
const ARTICLES = new Set(['a', 'an'])

/** Days per unit; a month is 30 days and a year 365, as notice clauses are usually counted. */
const UNIT_DAYS = { day: 1, week: 7, month: 30, year: 365 } as const

/** "ten (10) days", "180 days", "thirty calendar days", "3 months". */
const PERIOD =
  /\b(?:([a-z]+(?:-[a-z]+)?)\s*\((\d{1,4})\)|(\d{1,4})|([a-z]+(?:-[a-z]+)?))\s+(?:calendar\s+|business\s+|working\s+)?(day|week|month|year)s?['’]?\b/gi

/** A period as a passage states it: its length in days and its own words ("ten (10) days"). */
export interface StatedPeriod {
  days: number
  words: string
}

/** The length in days of the notice period `text` states, or null; see statedPeriod. */
export function statedPeriodDays(text: string): number | null {
  return statedPeriod(text)?.days ?? null
}

/**
 * The notice period `text` states, in days (months as 30, years as 365) and in the passage's own
 * words, or null when it states none. Among several periods the one nearest the word "notice" wins
 * (a renewal clause also states the renewal term). A figure in parentheses beats the words before
 * it ("one hundred eighty (180) days" is 180). Pure; never throws.
 */
export function statedPeriod(text: string): StatedPeriod | null {
  const notice = text.search(/\bnotice\b/i)
  let best: (StatedPeriod & { distance: number }) | null = null
  for (const m of text.matchAll(PERIOD)) {
    const figure = m[2] ?? m[3]
    const word = (m[4] ?? '').toLowerCase()
    // "a"/"an" count as one in a duration, but "on a month to month basis" states no notice.
    const count = figure ? Number(figure) : ARTICLES.has(word) ? undefined : NUMBER_WORDS[word]
    if (count === undefined) continue
    const days = count * UNIT_DAYS[(m[5] ?? 'day').toLowerCase() as keyof typeof UNIT_DAYS]
    const distance = notice < 0 ? 0 : Math.abs((m.index ?? 0) - notice)
    if (!best || distance < best.distance)
      best = { days, words: m[0].replace(/['’]$/, '').replace(/\s+/g, ' '), distance }
  }
  return best ? { days: best.days, words: best.words } : null
}
