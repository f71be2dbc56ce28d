/**
 * A review cell's typed answer (issue 44, decision 0137): one shape per column answer type, each
 * normalised (dates ISO `YYYY-MM-DD`, durations in months, money as `{ amount, currency }`), and
 * the check that keeps a cell honest: every citation's `text` must equal its document's slice
 * `content.slice(start, end)`, or the cell is `unverified`, never an answer.
 */
import { z } from 'zod'
import { DURATION_SOURCE, durationFrom } from '../../ai/analyzer/local/dates'
import { clipText } from '../../search/char-boundary'

export const ANSWER_TYPES = [
  'yes_no',
  'date',
  'duration',
  'money',
  'party',
  'text',
  'list',
] as const
export const AnswerType = z.enum(ANSWER_TYPES)
export type AnswerType = z.infer<typeof AnswerType>

/** Longest text an answer keeps (a clause is quoted whole in its citation, not here). */
const MAX_TEXT = 2000
/** Longest party name, period wording and list item an answer keeps; most names it lists. */
export const MAX_NAME = 300
export const MAX_PERIOD_TEXT = 200
export const MAX_ITEM = 500
export const MAX_NAMES = 20

export const ReviewAnswer = z
  .discriminatedUnion('type', [
    z.object({
      type: z.literal('yes_no'),
      value: z.boolean(),
      unlessConsent: z
        .boolean()
        .optional()
        .describe('A No that a party’s consent lifts ("shall not, without consent, …")'),
    }),
    z.object({ type: z.literal('date'), value: z.iso.date().describe('ISO 8601 date') }),
    z.object({
      type: z.literal('duration'),
      months: z.number().min(0).describe('Days count as 1/30 month, weeks 7/30, years 12'),
      text: z.string().max(MAX_PERIOD_TEXT).describe('The period as the document words it'),
    }),
    z.object({
      type: z.literal('money'),
      amount: z.number().min(0),
      currency: z.string().min(3).max(3).describe('ISO 4217 code'),
    }),
    z.object({
      type: z.literal('party'),
      names: z.array(z.string().min(1).max(MAX_NAME)).min(1).max(MAX_NAMES),
    }),
    z.object({ type: z.literal('text'), value: z.string().min(1).max(MAX_TEXT) }),
    z.object({
      type: z.literal('list'),
      items: z.array(z.string().min(1).max(MAX_ITEM)).min(1).max(50),
    }),
  ])
  .meta({ id: 'ReviewAnswer' })
export type ReviewAnswer = z.infer<typeof ReviewAnswer>

/** The reason a stored answer outside ReviewAnswer is shown with (storedCell). */
export const DAMAGED_ANSWER =
  'The stored answer is not one of its kind (an imported or damaged value); retry the cell.'

/** A lawyer's override as stored in a cell (reviews/service.ts overrideCell writes it). */
const StoredOverride = z.object({
  answer: ReviewAnswer.nullable(),
  note: z.string().max(2000).nullable(),
  by: z.string().nullable(),
  at: z.string(),
})
export type StoredOverride = z.infer<typeof StoredOverride>

/**
 * A stored cell as it may be shown: its state, reason, answer and override, with an answered
 * cell whose answer is outside ReviewAnswer (a hostile archive's, or a value stored before answers
 * were checked, decision 0137) read as `failed` with DAMAGED_ANSWER, and an override outside
 * StoredOverride read as none. So a damaged value fails its cell, never the page or export
 * holding it.
 */
export function storedCell(cell: {
  state: string
  reason: string | null
  answer: unknown
  override: unknown
}): {
  state: string
  reason: string | null
  answer: ReviewAnswer | null
  override: StoredOverride | null
} {
  const parsedOverride = cell.override === null ? null : StoredOverride.safeParse(cell.override)
  const override = parsedOverride?.success ? parsedOverride.data : null
  if (cell.state !== 'answered')
    return { state: cell.state, reason: cell.reason, answer: null, override }
  const parsed = ReviewAnswer.safeParse(cell.answer)
  return parsed.success
    ? { state: cell.state, reason: cell.reason, answer: parsed.data, override }
    : { state: 'failed', reason: DAMAGED_ANSWER, answer: null, override }
}

export const ReviewCitation = z
  .object({
    start: z.number().int().min(0),
    end: z.number().int().min(0),
    text: z.string().describe('Equals the document text from start to end'),
  })
  .meta({ id: 'ReviewCitation' })
export type ReviewCitation = z.infer<typeof ReviewCitation>

/** A cited span of `content` as a citation (its text the slice). */
export function citationOf(content: string, span: { start: number; end: number }): ReviewCitation {
  return { start: span.start, end: span.end, text: content.slice(span.start, span.end) }
}

/**
 * An answer as one line of text, as the grid shows it (the cells API's `text`) and a review's
 * export writes it: Yes/No ("No, not without consent"), ISO date, "6 months", "1500000 USD",
 * names and items joined with "; ".
 */
export function answerAsText(answer: ReviewAnswer): string {
  switch (answer.type) {
    case 'yes_no':
      return answer.value ? 'Yes' : answer.unlessConsent ? 'No, not without consent' : 'No'
    case 'date':
      return answer.value
    case 'duration':
      return `${answer.months} months`
    case 'money':
      return `${answer.amount} ${answer.currency}`
    case 'party':
      return answer.names.join('; ')
    case 'text':
      return answer.value
    case 'list':
      return answer.items.join('; ')
  }
}

const MONTHS_PER_UNIT = { day: 1 / 30, week: 7 / 30, month: 1, year: 12 } as const

/** A period as dates.ts reads it (word, figure in parentheses or figure; unit), from a word start. */
const DURATION = new RegExp(`\\b${DURATION_SOURCE}`, 'i')

/**
 * The first period `text` states ("60 days", "one (1) year", "thirty-six months") in months
 * (MONTHS_PER_UNIT, two decimals), with its words; null when it states none.
 */
export function durationIn(text: string): { months: number; text: string; index: number } | null {
  const m = DURATION.exec(text)
  const period = m ? durationFrom(m, 1) : null
  if (!m || !period) return null
  return {
    months: Math.round(period.amount * MONTHS_PER_UNIT[period.unit] * 100) / 100,
    text: m[0],
    index: m.index,
  }
}

const CURRENCY_SIGNS: Record<string, string> = { $: 'USD', '€': 'EUR', '£': 'GBP', '¥': 'JPY' }
const CURRENCY_CODES = ['USD', 'EUR', 'GBP', 'JPY', 'CHF', 'CAD', 'AUD', 'CNY', 'INR', 'SEK']
const MONEY = new RegExp(
  `(?:(${CURRENCY_CODES.join('|')}|US\\$|[$€£¥])\\s?(\\d[\\d,]*(?:\\.\\d+)?)(?:\\s?(million|billion|thousand))?)|(?:(\\d[\\d,]*(?:\\.\\d+)?)(?:\\s?(million|billion|thousand))?\\s?(${CURRENCY_CODES.join('|')}|dollars|euros|pounds))`,
  'i',
)
const SCALE: Record<string, number> = { thousand: 1e3, million: 1e6, billion: 1e9 }
const WORD_CURRENCY: Record<string, string> = { dollars: 'USD', euros: 'EUR', pounds: 'GBP' }

/**
 * The first amount of money `text` states ("$1,500,000", "USD 2 million", "10,000 euros") as
 * `{ amount, currency }` (ISO 4217; `$` read as USD), with where it stands; null when none.
 */
export function moneyIn(
  text: string,
): { amount: number; currency: string; index: number; length: number } | null {
  const m = MONEY.exec(text)
  if (!m) return null
  const sign = (m[1] ?? m[6] ?? '').toUpperCase()
  const currency =
    sign === 'US$'
      ? 'USD'
      : (CURRENCY_SIGNS[m[1] ?? ''] ?? WORD_CURRENCY[sign.toLowerCase()] ?? sign)
  const amount = Number((m[2] ?? m[4] ?? '').replace(/,/g, ''))
  const scale = SCALE[(m[3] ?? m[5] ?? '').toLowerCase()] ?? 1
  if (!Number.isFinite(amount) || currency.length !== 3) return null
  return { amount: amount * scale, currency, index: m.index, length: m[0].length }
}

/**
 * The ISO 4217 code `written` names: a code of three letters (any case), a sign (`$` read as USD,
 * `US$`, `€`, `£`, `¥`) or a currency word (dollars, euros, pounds); null otherwise.
 */
export function currencyCode(written: string): string | null {
  const text = written.trim()
  if (/^[a-z]{3}$/i.test(text)) return text.toUpperCase()
  if (text.toUpperCase() === 'US$') return 'USD'
  return CURRENCY_SIGNS[text] ?? WORD_CURRENCY[text.toLowerCase()] ?? null
}

/**
 * `text` cut to the answer's limit at a word (else between two characters, never inside a
 * surrogate pair), with an ellipsis when cut.
 */
export function answerText(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  if (flat.length <= MAX_TEXT) return flat
  const cut = clipText(flat, MAX_TEXT - 1)
  return `${clipText(cut, Math.max(cut.lastIndexOf(' '), MAX_TEXT / 2))}…`
}
