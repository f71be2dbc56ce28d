/**
 * The deal sheet's money line (issue 48): who pays whom, how much or on what basis, and when,
 * read from the sentences that impose a payment (readClause), not from any sentence holding a
 * figure: "Buyer shall pay Supplier $4.50 per case within 30 days of invoice" → "Buyer → Supplier:
 * $4.50 per case, within 30 days of invoice". Figures in insurance, liability and share-price
 * sentences are never money the deal moves.
 */
import type { Party, QuotedSpan } from '../../types'
import { DURATION_SOURCE, durationFrom, formatDuration } from '../dates'
import { namedParties, partyLabel } from '../reading/named-parties'
import { readClause } from '../reading/read-clause'
import {
  clausesOf,
  distinctQuotes,
  flat,
  isOperative,
  sentencesWith,
  type LineFinding,
  type SheetInput,
} from './sheet-input'

/** Money as contracts state it: "$1,250,000", "US$ 500", "EUR 20,000", "£3 million", "500 dollars". */
export const MONEY =
  /(?:US\$|\$|USD|EUR|€|£|GBP|CAD|RMB|¥)\s?\d[\d,]*(?:\.\d+)?(?:\s*(?:million|thousand|billion))?|\b\d[\d,]*(?:\.\d+)?\s*(?:dollars|euros|USD|EUR)\b/i

/** A rate: "5%", "ten percent (10%)", "3 per cent". */
const RATE = /\b\d+(?:\.\d+)?\s*(?:%|per\s*cent\b|percent\b)/i

/** Words of paying, to prefilter sentences before reading them. */
const PAY_WORDS =
  /\b(?:pa(?:y|ys|id|yable|yment)|remit|reimburse|compensat\w*|royalt(?:y|ies)|fees?|price|commissions?|rent)\b/i

/** The main verbs of a payment: the payer's ("pay") or, passive, the payment's ("be paid"). */
const PAYER_ACTIONS = /^(?:pay|remit|reimburse|compensate|refund)$/
const PASSIVE_ACTIONS = /^(?:paid|payable|due|invoiced|remitted)$/

/** The subject of a price statement: "The purchase price … shall be $4.50". */
const PRICE_NOUN = /\b(?:price|fees?|royalt(?:y|ies)|rent|compensation|consideration|commission)\b/i

/** "X shall receive a fee / royalty / commission": the subject is the payee. */
const RECEIVES = /^(?:receive|earn|be)$/
const RECEIVED_THING =
  /\b(?:fees?|royalt(?:y|ies)|commissions?|compensation|remuneration|salary)\b/i

/**
 * Sentences whose figures are not money the deal moves: insurance cover, liability caps and
 * damages, indemnities, share and option prices, and each party bearing its own costs.
 */
const NOT_THE_DEAL =
  /\binsur(?:ance|ed|er)\b|\bcoverage\b|\bper\s+occurrence\b|\bliab(?:le|ility)\b|\bdamages\b|\bindemnif\w*|\bper\s+share\b|\bshares?\s+of\b|\b(?:common|preferred|capital)\s+stock\b|\b(?:exercise|closing|strike|conversion)\s+price\b|\bwarrants?\b|\bstock\s+options?\b|\bits\s+own\s+(?:costs?|expenses|fees)\b|\bown\s+costs\s+and\s+expenses\b/i

/** The unit an amount is priced per: "per case", "per hour", "for each Unit". */
const PER_UNIT = /^\s*(?:per|for\s+each|a|an|each)\s+([A-Za-z-]+)/

/** Units a price is stated per (not "a party", "each month's" other words after an amount). */
const UNITS =
  /^(?:unit|case|item|piece|hour|day|week|month|quarter|year|annum|copy|license|licence|user|seat|product|order|kilogram|kg|pound|ton|tonne|barrel|gallon|litre|liter|share|visit|patient|test|dose|subscriber|device|location|store|page|minute|call|transaction|shipment|container|pallet|box|bottle|vial)s?$/i

/** What a share of revenue is measured on: "of Net Sales", "of the gross revenues". */
const RATE_BASIS =
  /^\s*(?:\([^)]*\)\s*)?of\s+(?:the\s+|all\s+|such\s+)?((?:[A-Za-z-]+\s+){0,2}(?:sales|revenues?|receipts|profits?|price|income|proceeds|amounts?|fees?|billings))\b/i

/** Where the figure is instead: a schedule or exhibit, or redacted ("[***]"). */
const IN_SCHEDULE = /\b(?:schedule|exhibit|appendix|annex|attachment)\b|\[\s*\*+\s*\]/i

/** Payment timing, each with how the line says it. */
const WITHIN = new RegExp(
  String.raw`\b(?:within|no\s+later\s+than|not\s+later\s+than)\s+${DURATION_SOURCE}\s*(?:after|of|from|following)?\s*(?:the\s+|its\s+|such\s+)?(?:date\s+of\s+)?(?:receipt\s+of\s+(?:an?\s+|the\s+)?(invoice)|(invoice)|(receipt)|end\s+of\s+(?:each|the)\s+(?:calendar\s+)?(quarter|month|year))?`,
  'i',
)
const EVERY_PERIOD =
  /\b(?:pa(?:id|yable)|invoiced?|due)\b[^.;]{0,60}\b(monthly|quarterly|annually|semi-annually|in\s+advance|in\s+arrears)\b|\b(?:each|every|per)\s+(?:calendar\s+)?(month|quarter|year)\b/i
const UPON =
  /\b(?:upon|on|at)\s+(?:the\s+)?(execution|signing|signature|delivery|acceptance|effective\s+date)\b/i

/** A deal stated to move no money: "royalty-free", "no payment is due", "without charge". */
const NO_MONEY =
  /\broyalty-?\s?free\b|\bfree\s+of\s+charge\b|\bwithout\s+(?:charge|compensation|payment)\b|\bno\s+(?:payment|fee|consideration)\s+(?:is|shall\s+be|will\s+be)\s+(?:due|payable|paid)/i

/** At most this many payments are read into the line (the rest are in the contract). */
const MAX_PAYMENTS = 3

/**
 * Money: up to three payments, each "payer → payee: amount or basis, when" (payer or payee left
 * out when the sentence names neither), then a minimum commitment; when no sentence imposes a
 * payment, a statement that none is due. Null when the contract says nothing of money.
 */
export function moneyLine(input: SheetInput): LineFinding {
  const parties = input.keyTerms.parties
  const parts: string[] = []
  const cites: QuotedSpan[] = []
  const payments: Payment[] = []
  for (const sentence of sentencesWith(input, PAY_WORDS)) {
    if (payments.length >= MAX_PAYMENTS) break
    if (NOT_THE_DEAL.test(sentence.text)) continue
    const payment = readPayment(sentence.text, parties)
    if (!payment) continue
    // "Buyer shall pay each invoice within 30 days" times the payment already read, not another.
    const timed = payment.what
      ? undefined
      : payments.find((p) => !p.when && (!payment.payer || p.payer === payment.payer))
    if (timed && payment.when) {
      timed.when = payment.when
      cites.push(sentence)
      continue
    }
    const value = describePayment(payment)
    if (parts.includes(value)) continue
    payments.push(payment)
    parts.push(value)
    cites.push(sentence)
  }
  parts.splice(0, parts.length, ...payments.map(describePayment))
  const minimum = clausesOf(input, ['Minimum Commitment']).find(
    (c) => isOperative(c) && !NOT_THE_DEAL.test(c.text),
  )
  if (minimum) {
    parts.push('minimum commitment')
    cites.push(minimum)
  }
  if (parts.length === 0) {
    const free = sentencesWith(input, NO_MONEY)[0]
    if (!free) return null
    parts.push('no payment stated (royalty-free or without charge)')
    cites.push(free)
  }
  return { value: parts.join('; '), citations: distinctQuotes(cites) }
}

/** One payment read from a sentence: who pays whom (labels), what, when; each may be unknown. */
export interface Payment {
  payer: string | null
  payee: string | null
  what: string | null
  when: string | null
}

/** "Buyer → Supplier: $4.50 per case, within 30 days of invoice", as far as it is known. */
export function describePayment({ payer, payee, what, when }: Payment): string {
  const who =
    payer && payee
      ? `${payer} → ${payee}`
      : payer
        ? `${payer} pays`
        : payee
          ? `paid to ${payee}`
          : 'payment'
  return `${who}: ${[what ?? 'amount not stated', when].filter(Boolean).join(', ')}`
}

/**
 * One sentence read as a payment; null when the sentence imposes no payment (a statement, a
 * prohibition, a payment it only mentions) or names neither an amount, a basis nor a party.
 */
export function readPayment(text: string, parties: readonly Party[]): Payment | null {
  const reading = readClause(text, parties)
  if (reading.modality !== 'must' && reading.modality !== 'may') return null
  if (reading.freedom || reading.effect === 'deletes' || !reading.action) return null
  const action = reading.action
  const afterVerb = text.slice(Math.max(0, text.search(new RegExp(`\\b${action}\\b`, 'i'))))
  let payer: string[] = []
  let payee: string[] = []
  const label = (names: readonly string[]) => names.map((n) => partyLabel(n, parties))
  if (PAYER_ACTIONS.test(action)) {
    payer = reading.everyParty ? ['each party'] : label(reading.who)
    payee = label(
      namedParties(afterVerb.split(/[;]|\bwithin\b|\bno\s+later\b/i)[0] ?? '', parties).names,
    ).filter((n) => !payer.includes(n))
  } else if (PASSIVE_ACTIONS.test(action)) {
    const to = /\b(?:to|by)\s+([^,;]{1,80})/gi
    for (const m of afterVerb.matchAll(to)) {
      const named = label(namedParties(m[1] ?? '', parties).names)
      if (/^to/i.test(m[0]) && payee.length === 0) payee = named.slice(0, 1)
      if (/^by/i.test(m[0]) && payer.length === 0) payer = named.slice(0, 1)
    }
  } else if (RECEIVES.test(action) && RECEIVED_THING.test(reading.object ?? '')) {
    payee = label(reading.who)
    const from = /\bfrom\s+([^,;]{1,80})/i.exec(afterVerb)
    payer = from ? label(namedParties(from[1] ?? '', parties).names.slice(0, 1)) : []
  } else if (action === 'be' && PRICE_NOUN.test(text.slice(0, text.search(/\bbe\b/i)))) {
    // "The purchase price of each Product shall be $4.50": a price with no one named to pay it.
  } else return null
  const what = amountOf(afterVerb) ?? amountOf(text)
  const when = timingOf(text)
  if (!what && !when && payer.length === 0 && payee.length === 0) return null
  return {
    payer: payer.length > 0 ? payer.join(' and ') : null,
    payee: payee.length > 0 ? payee.join(' and ') : null,
    what,
    when,
  }
}

/** "$4.50 per case", "5% of Net Sales", "as set in a schedule or redacted"; null when none. */
function amountOf(text: string): string | null {
  const money = MONEY.exec(text)
  if (money) {
    const unit = PER_UNIT.exec(text.slice(money.index + money[0].length))?.[1]
    return `${flat(money[0])}${unit && UNITS.test(unit) ? ` per ${unit.toLowerCase()}` : ''}`
  }
  const rate = RATE.exec(text)
  if (rate) {
    const basis = RATE_BASIS.exec(text.slice(rate.index + rate[0].length))?.[1]
    return `${flat(rate[0])}${basis ? ` of ${flat(basis)}` : ''}`
  }
  if (IN_SCHEDULE.test(text)) return 'amount set in a schedule or redacted'
  return null
}

/** "within 30 days of invoice", "quarterly", "upon signing"; null when the sentence sets no time. */
function timingOf(text: string): string | null {
  const within = WITHIN.exec(text)
  const duration = within ? durationFrom(within, 1) : null
  if (within && duration) {
    const invoice = within[5] ?? within[6]
    const receipt = within[7]
    const end = within[8]
    const from = invoice
      ? ' of invoice'
      : receipt
        ? ' of receipt'
        : end
          ? ` of the end of each ${end.toLowerCase()}`
          : ''
    return `within ${formatDuration(duration)}${from}`
  }
  const every = EVERY_PERIOD.exec(text)
  if (every) {
    const word = (every[1] ?? every[2] ?? '').toLowerCase().replace(/\s+/g, ' ')
    const period = { month: 'monthly', quarter: 'quarterly', year: 'annually' }[word] ?? word
    const advance = /\bin\s+(advance|arrears)\b/i.exec(text)?.[0]
    return advance && !period.startsWith('in ') ? `${period} ${advance.toLowerCase()}` : period
  }
  const upon = UPON.exec(text)
  if (upon && /\bpa(?:y|id|yable|yment)\b/i.test(text))
    return `upon ${(upon[1] ?? '').toLowerCase().replace(/\s+/g, ' ')}`
  return null
}
