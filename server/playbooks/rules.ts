/**
 * The typed rules of a playbook stance (positions.ts PlaybookRule), each decided from passages
 * the analysis already cited: the deal-sheet line's citations, the detected clauses of the
 * position's category and the key terms (server/ai/analyzer/types.ts). Each answer says what was
 * read, from which passage, and whether the rule holds; `unknown` when the passages state
 * nothing the rule can measure (a cap of a fixed sum cannot be set against the fees). Readings
 * from the local engine's reading layer: assignmentRule (reading/read-clause.ts under it),
 * statedPeriod, the deal sheet's cap pattern, durations as dates.ts reads them. Pure.
 */
import type { KeyTerms, QuotedSpan } from '../ai/analyzer/types'
import { CAP, CAP_LIMIT } from '../ai/analyzer/local/deal-sheet/liability-line'
import { MONEY } from '../ai/analyzer/local/deal-sheet/money-line'
import { assignmentRule } from '../ai/analyzer/local/deal-sheet/assignment-line'
import { statedPeriod } from '../ai/analyzer/local/stated-period'
import { DURATION_SOURCE, durationFrom, NUMBER_WORDS } from '../ai/analyzer/local/dates'
import type { PlaybookRule } from './positions'

/** What a rule read: whether it holds, in words, and the passage it was read from. */
export interface RuleReading {
  outcome: 'met' | 'not_met' | 'unknown'
  /** What the contract says, as read ("cap of 2 × the fees", "governing law: New York"). */
  found: string
  citation: QuotedSpan | null
}

/** The passages and key terms a rule reads: a position's evidence (check-playbook.ts). */
export interface RuleInput {
  passages: readonly QuotedSpan[]
  keyTerms: KeyTerms
}

/** Decides `rule` on `input`. Never throws. */
export function readRule(rule: PlaybookRule, input: RuleInput): RuleReading {
  switch (rule.kind) {
    case 'cap_at_least_fees':
      return capRule(rule.multiple, input)
    case 'term_at_most_months':
      return termRule(rule.months, input)
    case 'consent_to_assign':
      return consentRule(input)
    case 'governing_law_in':
      return lawRule(rule.laws, input)
    case 'notice_at_least_days':
      return noticeRule(rule.days, input)
  }
}

/** The rule in words, as a check reports what decided it. */
export function describeRule(rule: PlaybookRule): string {
  switch (rule.kind) {
    case 'cap_at_least_fees':
      return `liability cap at least ${rule.multiple} × the fees`
    case 'term_at_most_months':
      return `initial term at most ${rule.months} months`
    case 'consent_to_assign':
      return 'consent needed to assign'
    case 'governing_law_in':
      return `governing law among ${rule.laws.join(', ')}`
    case 'notice_at_least_days':
      return `notice of at least ${rule.days} days`
  }
}

const UNLIMITED =
  /\bunlimited\s+liability\b(?!\s+(?:company|companies|corporation|partnership))|\bliability\b[^.]{0,60}\b(?:shall\s+not\s+be|is\s+not)\s+(?:limited|capped)\b/i

/** "two (2) times the fees", "2x the fees", "twice the fees", "150% of the fees", "the fees paid". */
const FEE_MULTIPLE = new RegExp(
  String.raw`\b(?:(twice|double|triple)|([a-z]+(?:-[a-z]+)?)\s*(?:\(\s*(\d+(?:\.\d+)?)\s*\)\s*)?(?:times|x)|(\d+(?:\.\d+)?)\s*(?:times|x|×))\s+(?:the\s+)?(?:total\s+|aggregate\s+|annual\s+|amount\s+of\s+(?:the\s+)?)?(?:fees|charges|amounts?|sums|price|contract\s+value)`,
  'i',
)
const FEE_PERCENT =
  /\b(\d+(?:\.\d+)?)\s*(?:%|per\s*cent|percent)\s+(?:of\s+)?(?:the\s+)?(?:total\s+|aggregate\s+|annual\s+)?(?:fees|charges|amounts?|sums|price)/i
const FEES_PAID = /\b(?:fees|charges|amounts?|sums|price)\b[^.]{0,60}\b(?:paid|payable)\b/i
const WORDS_AS_TIMES: Record<string, number> = { twice: 2, double: 2, triple: 3 }

/** The multiple of the fees `text` caps liability at; null when it is not measured by them. */
export function feeMultiple(text: string): number | null {
  const m = FEE_MULTIPLE.exec(text)
  if (m) {
    if (m[1]) return WORDS_AS_TIMES[m[1].toLowerCase()] ?? null
    const figure = m[3] ?? m[4]
    if (figure) return Number(figure)
    const word = m[2] ? NUMBER_WORDS[m[2].toLowerCase()] : undefined
    if (word !== undefined && m[2] !== 'a' && m[2] !== 'an') return word
  }
  const percent = FEE_PERCENT.exec(text)
  if (percent?.[1]) return Number(percent[1]) / 100
  return FEES_PAID.test(text) ? 1 : null
}

function capRule(multiple: number, { passages }: RuleInput): RuleReading {
  const cap = passages.find((p) => CAP.test(p.text) && CAP_LIMIT.test(p.text))
  if (cap) {
    const times = feeMultiple(cap.text)
    if (times !== null) {
      const lesser = /\blesser\s+of\b/i.test(cap.text) && MONEY.test(cap.text)
      if (lesser)
        return {
          outcome: 'unknown',
          found: `cap of the lesser of a fixed sum and ${times} × the fees`,
          citation: cap,
        }
      return {
        outcome: times >= multiple ? 'met' : 'not_met',
        found: `cap of ${times} × the fees`,
        citation: cap,
      }
    }
    const amount = MONEY.exec(cap.text)?.[0]
    return {
      outcome: 'unknown',
      found: amount
        ? `cap of a fixed sum (${amount.replace(/\s+/g, ' ')})`
        : 'cap not measured by the fees',
      citation: cap,
    }
  }
  const unlimited = passages.find((p) => UNLIMITED.test(p.text))
  if (unlimited) return { outcome: 'met', found: 'liability not capped', citation: unlimited }
  // The analysis read the liability passages and none caps liability: the contract leaves it
  // unlimited, which is at least any multiple (a rule for the customer's side).
  if (passages.length > 0)
    return { outcome: 'met', found: 'no cap found: liability not limited', citation: null }
  return { outcome: 'unknown', found: 'no liability passage found', citation: null }
}

const MONTHS_PER = { year: 12, month: 1, week: 7 / 30, day: 1 / 30 } as const
const OPEN_TERM =
  /\b(?:perpetu\w*|indefinite(?:ly)?|until\s+terminated|no\s+fixed\s+(?:term|end)|runs\s+until\s+terminated)\b/i
const TERM_WORDS =
  /\b(?:term|period|commenc\w*|continue|remain\s+in\s+(?:full\s+)?(?:force|effect)|expire)\b/i

/** Words just before a duration that make it another period than the term's own. */
const NOT_THE_TERM =
  /\b(?:renew\w*(?:\s+\w+){0,3}\s+for|successive|notice|prior\s+to|before|after|within|survive\w*)\b[^.]{0,40}$/i

function termRule(months: number, { passages }: RuleInput): RuleReading {
  const duration = new RegExp(DURATION_SOURCE, 'gi')
  for (const passage of passages) {
    if (!TERM_WORDS.test(passage.text)) continue
    for (const m of passage.text.matchAll(duration)) {
      // The initial term: a renewal, a notice or a survival period states another length.
      if (NOT_THE_TERM.test(passage.text.slice(Math.max(0, (m.index ?? 0) - 60), m.index))) continue
      const read = durationFrom(m, 1)
      if (!read) continue
      const total = Math.round(read.amount * MONTHS_PER[read.unit] * 10) / 10
      return {
        outcome: total <= months ? 'met' : 'not_met',
        found: `term of ${read.amount} ${read.unit}${read.amount === 1 ? '' : 's'} (${total} months)`,
        citation: passage,
      }
    }
  }
  const open = passages.find((p) => OPEN_TERM.test(p.text))
  if (open) return { outcome: 'not_met', found: 'no fixed end', citation: open }
  return { outcome: 'unknown', found: 'no term length found', citation: null }
}

const ASSIGNS = /\b(?:assign|transfer)\w*\b/i

function consentRule({ passages, keyTerms }: RuleInput): RuleReading {
  let needs: { found: string; citation: QuotedSpan } | null = null
  for (const passage of passages) {
    if (!ASSIGNS.test(passage.text)) continue
    const read = assignmentRule(passage.text, keyTerms.parties)
    if (!read) continue
    if (/may assign freely\b/.test(read))
      return { outcome: 'not_met', found: read, citation: passage }
    if (!needs && /\bnot without consent|\bmay assign with consent|\bmay not assign/.test(read))
      needs = { found: read, citation: passage }
  }
  if (needs) return { outcome: 'met', ...needs }
  return { outcome: 'unknown', found: 'no assignment clause read', citation: null }
}

function lawRule(laws: readonly string[], { passages, keyTerms }: RuleInput): RuleReading {
  const value = keyTerms.governingLaw?.value
  // The key term's own span may be a heading ("GOVERNING LAW"): cite the passage stating it.
  const citation =
    (value ? passages.find((p) => hasWords(p.text, value)) : undefined) ??
    passages.find((p) => /\bgovern/i.test(p.text)) ??
    passages[0] ??
    null
  const text = value ?? citation?.text
  if (!text) return { outcome: 'unknown', found: 'no governing law found', citation: null }
  const hit = laws.some((law) => hasWords(text, law))
  const named = value ?? text.replace(/\s+/g, ' ').slice(0, 120)
  return { outcome: hit ? 'met' : 'not_met', found: `governing law: ${named}`, citation }
}

/** Whether `words` occur in `text` as whole words, case and spacing aside. */
function hasWords(text: string, words: string): boolean {
  const pattern = words.trim().split(/\s+/).map(escapeRegExp).join('\\s+')
  return new RegExp(`(?:^|[^\\p{L}])${pattern}(?:$|[^\\p{L}])`, 'iu').test(text)
}

function noticeRule(days: number, { passages, keyTerms }: RuleInput): RuleReading {
  // The analysis' own notice period, when one of the passages holds it: its reader picks the
  // period of notice among the several a renewal clause states (the term, the renewal, the notice).
  const term = keyTerms.noticePeriod
  const holding = term && passages.find((p) => p.start <= term.start && term.end <= p.end)
  const read = holding ? statedPeriod(term.value) : null
  if (holding && read)
    return {
      outcome: read.days >= days ? 'met' : 'not_met',
      found: `notice of ${read.words} (${read.days} days)`,
      citation: holding,
    }
  for (const passage of passages) {
    const period = noticePeriodIn(passage.text)
    if (!period) continue
    return {
      outcome: period.days >= days ? 'met' : 'not_met',
      found: `notice of ${period.words} (${period.days} days)`,
      citation: passage,
    }
  }
  return { outcome: 'unknown', found: 'no notice period found', citation: null }
}

/** Words of notice, then of a deadline: where the period of notice is stated, best first. */
const NOTICE_ANCHORS = [/\bnoti(?:ce|f\w*)\b/gi, /\bprior\s+to\b|\bbefore\b/gi]

/**
 * The period of notice `text` states: the first period within 60 characters of a word of notice
 * ("notice", "notifies"), else of a deadline ("prior to", "before"), so that a renewal clause's
 * term and renewal lengths are passed over; null when none.
 */
function noticePeriodIn(text: string): ReturnType<typeof statedPeriod> {
  for (const anchors of NOTICE_ANCHORS)
    for (const m of text.matchAll(anchors)) {
      const from = m.index - 60
      // Start the window at a word's start, so "one (1) year" is not read as "e (1) year".
      const start = from <= 0 ? 0 : text.indexOf(' ', from) + 1
      const period = statedPeriod(text.slice(start, m.index + m[0].length + 60))
      if (period) return period
    }
  return null
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
