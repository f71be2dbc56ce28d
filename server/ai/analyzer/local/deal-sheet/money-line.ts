/** The deal sheet's money line: fees, prices, royalties, minimums and when payment is due. */
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

/** Money as contracts state it: "$1,250,000", "US$ 500", "EUR 20,000", "£3 million", "500 dollars". */
export const MONEY =
  /(?:US\$|\$|USD|EUR|€|£|GBP|CAD|RMB|¥)\s?\d[\d,]*(?:\.\d+)?(?:\s*(?:million|thousand|billion))?|\b\d[\d,]*(?:\.\d+)?\s*(?:dollars|euros|USD|EUR)\b/i

/** Words that make an amount a price, fee or other consideration. */
const CONSIDERATION =
  /\b(?:pa(?:y|ys|id|yable|yment)|fees?|price|royalt(?:y|ies)|consideration|compensation|remuneration|commissions?|charges?|rent|purchase\s+price)\b/i

/** A share of revenue: "a royalty of 5% of Net Sales", "ten percent (10%) commission". */
const SHARE =
  /\b\d+(?:\.\d+)?\s*(?:%|per\s*cent|percent)[^.]{0,80}\b(?:net\s+sales|revenues?|gross|royalt|commission|profits?|receipts|sales\s+price)|\b(?:royalt(?:y|ies)|commissions?)\b[^.]{0,80}\d+(?:\.\d+)?\s*(?:%|per\s*cent|percent)/i

/** Payment timing: "within thirty (30) days of receipt of invoice", "payable quarterly". */
const TIMING = new RegExp(
  String.raw`\b(?:within|no\s+later\s+than|not\s+later\s+than)\s+${DURATION_SOURCE}[^.]{0,80}\b(?:invoice|receipt|end\s+of\s+(?:each|the)|quarter|month)|\b(?:pa(?:id|yable)|invoiced?)\s+(?:monthly|quarterly|annually|in\s+advance|in\s+arrears)`,
  'i',
)
const PAYMENT = /\b(?:pa(?:y|ys|id|yable|yment)|invoices?|remit)\b/i

/** A duty to pay without a written figure: redacted ("[***]") or set in a schedule. */
const PAY_DUTY =
  /\b(?:shall|will|agrees?\s+to|must)\s+(?:\w+\s+){0,2}pay\b|\b(?:shall|will)\s+be\s+(?:paid|payable|invoiced)\b|\bis\s+payable\b/i
const PAID_THING =
  /\b(?:fees?|price|prices|royalt(?:y|ies)|compensation|amounts?|sums?|charges?|commissions?|rent|invoices?|costs)\b/i
const IN_SCHEDULE = /\b(?:schedule|exhibit|appendix|annex|attachment)\b|\[\s*\*+\s*\]/i

/** A deal stated to move no money: "royalty-free", "no payment is due", "without charge". */
const NO_MONEY =
  /\broyalty-?\s?free\b|\bfree\s+of\s+charge\b|\bwithout\s+(?:charge|compensation|payment)\b|\bno\s+(?:payment|fee|consideration)\s+(?:is|shall\s+be|will\s+be)\s+(?:due|payable|paid)/i

/** CUAD categories that state money the contract moves (minimums, revenue sharing, prices). */
const MONEY_CATEGORIES = ['Minimum Commitment', 'Revenue/Profit Sharing', 'Price Restrictions']

/**
 * Money: up to three amounts with their kind (fee, royalty, price), any revenue share, a minimum
 * commitment and the payment timing, each cited; null when the contract states none.
 */
export function moneyLine(input: SheetInput): LineFinding {
  const parts: string[] = []
  const cites: QuotedSpan[] = []
  const amounts = sentencesWith(input, MONEY, CONSIDERATION).slice(0, 3)
  for (const sentence of amounts) {
    const amount = MONEY.exec(sentence.text)?.[0]
    const kind = CONSIDERATION.exec(sentence.text)?.[0].toLowerCase()
    if (amount) parts.push(`${kind ?? 'amount'} ${amount.replace(/\s+/g, ' ')}`)
    cites.push(sentence)
  }
  const share = sentencesWith(input, SHARE).find((s) => !cites.includes(s))
  if (share) {
    const rate = /\d+(?:\.\d+)?\s*(?:%|per\s*cent|percent)/i.exec(share.text)?.[0]
    parts.push(`share of revenue ${rate ?? ''}`.trim())
    cites.push(share)
  }
  const minimum = clausesOf(input, ['Minimum Commitment']).find((c) => isOperative(c))
  if (minimum) {
    parts.push('minimum commitment')
    cites.push(minimum)
  }
  const timing = sentencesWith(input, TIMING, PAYMENT)[0]
  if (timing) {
    const m = new RegExp(DURATION_SOURCE, 'i').exec(timing.text)
    const within = m ? durationFrom(m, 1) : null
    parts.push(within ? `payment within ${formatDuration(within)}` : 'payment timing stated')
    cites.push(timing)
  }
  if (parts.length === 0) {
    // Without a figure, a duty to pay, a revenue-sharing or price clause, or a statement that no
    // money moves still tells the reader what the deal costs.
    const duty = sentencesWith(input, PAY_DUTY, PAID_THING)[0]
    const clause = clausesOf(input, MONEY_CATEGORIES).find((c) => isOperative(c))
    const free = sentencesWith(input, NO_MONEY)[0]
    if (duty) {
      parts.push(
        IN_SCHEDULE.test(duty.text)
          ? 'payment set in a schedule or redacted'
          : 'payment duty without a stated figure',
      )
      cites.push(duty)
    } else if (clause) {
      parts.push(clause.category.toLowerCase())
      cites.push(clause)
    } else if (free) {
      parts.push('no payment stated (royalty-free or without charge)')
      cites.push(free)
    } else return null
  }
  return { value: [...new Set(parts)].join('; '), citations: distinctQuotes(cites) }
}
