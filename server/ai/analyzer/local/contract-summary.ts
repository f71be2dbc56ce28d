/**
 * A first-pass review summary of a contract: its deal sheet (build-deal-sheet.ts), whose plain
 * text is the summary's `text`; a header of key facts read from the key terms (type
 * of agreement, parties with roles, date, term and renewal, consideration, governing law), then
 * substance sentences chosen per detected clause category (grant, exclusivity, payment,
 * termination, liability, IP, …), each quoted from the contract. Where the clauses give fewer
 * sentences than the contract's length calls for, LexRank's most central sentences fill in.
 */
import type { Clause, KeyTerms, QuotedSpan, Summary, SummaryFact, SummarySentence } from '../types'
import { agreementTitle } from './agreement-title'
import { buildDealSheet, dealSheetText } from './deal-sheet/build-deal-sheet'
import { MONEY } from './deal-sheet/money-line'
import { summarize } from './summary'

/** Clause categories in the order a review memo discusses them (CUAD v1 category names). */
const SUBSTANCE_ORDER: readonly string[] = [
  'License Grant',
  'Exclusivity',
  'Non-Compete',
  'Revenue/Profit Sharing',
  'Minimum Commitment',
  'Price Restrictions',
  'Termination For Convenience',
  'Cap On Liability',
  'Uncapped Liability',
  'Liquidated Damages',
  'Ip Ownership Assignment',
  'Joint Ip Ownership',
  'Change Of Control',
  'Anti-Assignment',
  'Most Favored Nation',
  'Audit Rights',
  'Insurance',
  'Warranty Duration',
  'Post-Termination Services',
]

/**
 * A contract's summary has 5 to 12 substance sentences, about one per 40 sentences of contract
 * (never more than a quarter of the source's sentences).
 */
const MIN_SENTENCES = 5
const MAX_SENTENCES = 12
const SENTENCES_PER_SUMMARY_SENTENCE = 40

/**
 * Deal-sheet lines a text must fill for the deal sheet to be its readable summary: a third of
 * the twelve; a policy excerpt or a lone clause fills fewer.
 */
const MIN_FILLED_LINES = 4

/** A substance sentence has at least this many words and at most this many characters. */
const MIN_WORDS = 8
const MAX_CHARS = 600

/** Words that make a sentence with an amount state the price or consideration. */
const CONSIDERATION =
  /\b(?:pay(?:s|able|ment)?|fees?|price|royalt(?:y|ies)|consideration|compensation|purchase\s+price|remuneration)\b/i

/**
 * Builds the summary. `sentences` come from segmentSentences(content), `clauses` from
 * detectClauses, `keyTerms` from extractKeyTerms. Every span indexes `content`. Never throws.
 */
export function summarizeContract(
  content: string,
  sentences: readonly QuotedSpan[],
  clauses: readonly Clause[],
  keyTerms: KeyTerms,
): Summary {
  const header = summaryHeader(content, sentences, keyTerms)
  // A summary stays under a quarter of its source, so a short passage gets fewer than 5 sentences.
  const target = Math.min(
    Math.max(1, Math.ceil(sentences.length / 4)),
    Math.max(
      MIN_SENTENCES,
      Math.min(MAX_SENTENCES, Math.round(sentences.length / SENTENCES_PER_SUMMARY_SENTENCE)),
    ),
  )
  const chosen: SummarySentence[] = []
  const taken = (span: { start: number; end: number }) =>
    chosen.some((s) => s.start < span.end && span.start < s.end)
  for (const category of SUBSTANCE_ORDER) {
    if (chosen.length >= target) break
    // A clause quote may run over several sentences (decision 0129); the summary quotes one of
    // them, the first worth quoting.
    const best = clauses
      .filter((c) => c.category === category)
      .sort((a, b) => b.confidence - a.confidence)
      .map((c) =>
        sentences.find(
          (s) => s.start >= c.start && s.end <= c.end && isSubstance(s.text) && !taken(s),
        ),
      )
      .find((s) => s !== undefined)
    if (best) chosen.push({ text: best.text, start: best.start, end: best.end, category })
  }
  if (chosen.length < target) {
    const central = summarize(content, sentences, MAX_SENTENCES).sentences
    for (const sentence of central) {
      if (chosen.length >= target) break
      if (isSubstance(sentence.text) && !taken(sentence)) chosen.push(sentence)
    }
  }
  const dealSheet = buildDealSheet({ content, sentences, clauses, keyTerms })
  // A passage that is not a whole contract (a policy excerpt, a clause pasted alone) fills few
  // lines; its readable text stays the extractive summary, which says more than 'Not found's.
  const filled = dealSheet.lines.filter((line) => line.value !== null).length
  const text =
    filled >= MIN_FILLED_LINES
      ? dealSheetText(dealSheet)
      : [
          ...header.map((fact) => `${fact.label}: ${fact.value}.`),
          ...chosen.map((s) => s.text.replace(/\s+/g, ' ').trim()),
        ].join(' ')
  return { text, sentences: chosen, header, dealSheet }
}

/** A sentence worth quoting: running text, not a definition, not a fragment or a table row. */
export function isSubstance(text: string): boolean {
  const flat = text.replace(/\s+/g, ' ').trim()
  const words = flat.match(/\p{L}+/gu) ?? []
  if (words.length < MIN_WORDS || flat.length > MAX_CHARS) return false
  if (/^["“][^"”]{1,80}["”]\s+(?:means|shall\s+mean|has\s+the\s+meaning|includes)\b/i.test(flat))
    return false
  if (/["”]\s+(?:means|shall\s+mean)\b/i.test(flat.slice(0, 120))) return false
  const lower = words.filter((w) => /\p{Ll}/u.test(w)).length
  if (lower / words.length < 0.5) return false
  return /\b(?:shall|will|may|must|agrees?|grants?|is|are|has|have|pays?|provides?)\b/i.test(flat)
}

/** The header facts present in the key terms and the text, in reading order. */
function summaryHeader(
  content: string,
  sentences: readonly QuotedSpan[],
  keyTerms: KeyTerms,
): SummaryFact[] {
  const facts: SummaryFact[] = []
  const title = agreementTitle(content)
  if (title) facts.push({ label: 'Type', ...title })
  const parties = keyTerms.parties
  if (parties.length > 0) {
    const value = parties
      .map((p) => {
        const label = p.role ?? p.definedTerm?.text
        return label && label !== p.name ? `${p.name} (${label})` : p.name
      })
      .join('; ')
    const first = parties[0]
    const last = parties[parties.length - 1]
    if (first && last) facts.push({ label: 'Parties', value, start: first.start, end: last.end })
  }
  const date = keyTerms.effectiveDate ?? keyTerms.agreementDate
  // An effective date read from the agreement date's own passage is just the contract's date.
  const ownEffectiveDate =
    keyTerms.effectiveDate !== null &&
    keyTerms.effectiveDate.start !== keyTerms.agreementDate?.start
  if (date)
    facts.push({
      label: ownEffectiveDate ? 'Effective date' : 'Date',
      value: date.value,
      start: date.start,
      end: date.end,
    })
  const expiry = keyTerms.expirationDate
  if (expiry || keyTerms.renewalTerm) {
    const parts = [
      expiry ? (expiry.value === 'perpetual' ? 'no fixed end' : `until ${expiry.value}`) : null,
      keyTerms.renewalTerm ? `renews for ${keyTerms.renewalTerm.value}` : null,
      keyTerms.noticePeriod ? `${keyTerms.noticePeriod.value}' notice to stop renewal` : null,
    ].filter((part): part is string => part !== null)
    const span = expiry ?? keyTerms.renewalTerm
    if (span)
      facts.push({ label: 'Term', value: parts.join(', '), start: span.start, end: span.end })
  }
  const price = sentences.find((s) => MONEY.test(s.text) && CONSIDERATION.test(s.text))
  const amount = price ? MONEY.exec(price.text)?.[0] : undefined
  if (price && amount)
    facts.push({ label: 'Consideration', value: amount, start: price.start, end: price.end })
  if (keyTerms.governingLaw)
    facts.push({
      label: 'Governing law',
      value: keyTerms.governingLaw.value,
      start: keyTerms.governingLaw.start,
      end: keyTerms.governingLaw.end,
    })
  return facts
}
