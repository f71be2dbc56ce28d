/** The period of notice a passage states, in days, read from the passage itself. */

/** Number words up to the usual contract periods; "one hundred eighty" is read by its figure. */
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
  fourteen: 14,
  fifteen: 15,
  twenty: 20,
  thirty: 30,
  forty: 40,
  'forty-five': 45,
  fortyfive: 45,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
}

/** Days per unit; a month is 30 days and a year 365, as notice clauses are usually counted. */
const UNIT_DAYS = { day: 1, week: 7, month: 30, year: 365 } as const

/** "ten (10) days", "180 days", "thirty calendar days", "3 months". */
const PERIOD =
  /\b(?:([a-z]+(?:-[a-z]+)?)\s*\((\d{1,4})\)|(\d{1,4})|([a-z]+(?:-[a-z]+)?))\s+(?:calendar\s+|business\s+|working\s+)?(day|week|month|year)s?['’]?\b/gi

/**
 * The notice period `text` states, in days (months as 30, years as 365), or null when it states
 * none. Among several periods the one nearest the word "notice" wins (a renewal clause also states
 * the renewal term). A figure in parentheses beats the words before it ("one hundred eighty
 * (180) days" is 180). Pure; never throws.
 */
export function statedPeriodDays(text: string): number | null {
  const notice = text.search(/\bnotice\b/i)
  let best: { days: number; distance: number } | null = null
  for (const m of text.matchAll(PERIOD)) {
    const figure = m[2] ?? m[3]
    const count = figure ? Number(figure) : NUMBER_WORDS[(m[4] ?? '').toLowerCase()]
    if (count === undefined) continue
    const days = count * UNIT_DAYS[(m[5] ?? 'day').toLowerCase() as keyof typeof UNIT_DAYS]
    const distance = notice < 0 ? 0 : Math.abs((m.index ?? 0) - notice)
    if (!best || distance < best.distance) best = { days, distance }
  }
  return best ? best.days : null
}
