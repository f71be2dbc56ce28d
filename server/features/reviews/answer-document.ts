/**
 * Answers one document's cells of a review, offline (issue 44, decision 0137), from what the
 * local engine reads and the yes/no answerer decides, never from a generative model:
 * - a CUAD category preset: the analysis' clause findings of that category, best first (at most
 *   three), the first quoted as the answer, each cited by its own quote;
 * - a key-term preset: the analysis' key terms (parties, dates, renewal and notice periods,
 *   governing law) cited by the span each was read from, and the term from the deal sheet's line;
 * - a deal-sheet preset: that line of the deal sheet with its quotes;
 * - a custom yes/no column: the yes/no answerer (decideYesNo, decisions 0115 and 0130) over the
 *   document's own passages that share most terms with the question (as the assistant's
 *   retrieval hands it), cited by the deciding passage;
 * - a custom column of another type: the passage sharing most of the question's terms (at least
 *   two, or the one the question has), read for a value of the type (a date, a period, an
 *   amount, a party named in it, its text, its items), cited by that passage.
 * Names, periods' words and items are cut to the answer schema's limits where answers are built;
 * every answer then passes the schema (or becomes `failed`) and `citationsCheck` against the
 * document's text (or becomes `unverified`).
 */
import type { AnalysisResult, KeyTerm, QuotedSpan } from '../../ai/analyzer/types'
import { citationsCheck } from '../../documents/citation-check'
import { decideYesNo } from '../../ai/chat/decide-yes-no'
import { termsOf } from '../../ai/chat/yes-no-question'
import type { ChatPassage } from '../../ai/chat/types'
import { datesIn } from '../../ai/analyzer/local/dates'
import { chunkText, type TextChunk } from '../../search/chunk-text'
import { clipText } from '../../search/char-boundary'
import {
  answerText,
  citationOf,
  MAX_ITEM,
  MAX_NAME,
  MAX_NAMES,
  MAX_PERIOD_TEXT,
  ReviewAnswer,
  durationIn,
  moneyIn,
  type AnswerType,
  type ReviewCitation,
} from './review-answer'
import { presetOf, type PresetSource } from './review-presets'

/** A column as the answering needs it. */
export interface AnswerColumn {
  id: string
  presetKey: string | null
  question: string | null
  answerType: AnswerType
}

/** What a cell becomes: an answer with its citations, or a state with its reason. */
export type CellOutcome =
  | { state: 'answered'; answer: ReviewAnswer; citations: ReviewCitation[] }
  | { state: 'not_found' | 'failed' | 'unverified'; reason: string }

/** Clause findings quoted at most per cell. */
const MAX_CLAUSES = 3
/** Passages handed to the yes/no answerer, as the assistant's retrieval hands it a document's. */
const YES_NO_PASSAGES = 8
/** Passages tried in turn for a typed value. */
const VALUE_PASSAGES = 3

const NOT_FOUND = 'Not found in this document.'

/** The document's passages with their terms, made once per document. */
interface Passages {
  chunks: TextChunk[]
  terms: Set<string>[]
}

/**
 * The outcome of each of `columns` (by column id) for the document `content` titled `title`.
 * `analysis` is the engine's reading of this very text (null when none could be made: preset
 * cells then fail with `analysisFailure`). Pure; never throws.
 */
export function answerDocument(
  document: { id: string; title: string; content: string },
  analysis: AnalysisResult | null,
  columns: readonly AnswerColumn[],
  analysisFailure = 'The document could not be analysed.',
): Map<string, CellOutcome> {
  let passages: Passages | undefined
  const passagesOf = () => {
    if (!passages) {
      const chunks = chunkText(document.content)
      passages = { chunks, terms: chunks.map((c) => new Set(termsOf(c.text))) }
    }
    return passages
  }
  const outcomes = new Map<string, CellOutcome>()
  for (const column of columns) {
    let outcome: CellOutcome
    const preset = column.presetKey ? presetOf(column.presetKey) : undefined
    if (column.presetKey) {
      if (!preset) outcome = { state: 'failed', reason: 'This preset no longer exists.' }
      else if (!analysis) outcome = { state: 'failed', reason: analysisFailure }
      else outcome = fromAnalysis(document.content, analysis, preset.source)
    } else {
      outcome = fromQuestion(document, passagesOf(), analysis, column)
    }
    outcomes.set(column.id, checked(document.content, outcome))
  }
  return outcomes
}

/**
 * `outcome`, or `failed` when it is an answer outside the answer schema (ReviewAnswer: a name
 * past 300 characters, an amount that is not a finite number…), which the cell list's response
 * schema would refuse, or `unverified` when its citations are not the text's slices.
 */
export function checked(content: string, outcome: CellOutcome): CellOutcome {
  if (outcome.state !== 'answered') return outcome
  if (!ReviewAnswer.safeParse(outcome.answer).success)
    return {
      state: 'failed',
      reason: 'The answer found is not of the column’s type or is out of range; retry the cell.',
    }
  if (citationsCheck(content, outcome.citations)) return outcome
  return {
    state: 'unverified',
    reason: 'The passage cited for this answer is not in the document as it stands.',
  }
}

/** A name as an answer holds it: trimmed, at most MAX_NAME characters (ReviewAnswer's party). */
const nameOf = (name: string) => clipText(name.replace(/\s+/g, ' ').trim(), MAX_NAME)

function fromAnalysis(
  content: string,
  analysis: AnalysisResult,
  source: PresetSource,
): CellOutcome {
  if (source.kind === 'clause') {
    const found = analysis.clauses
      .filter((c) => c.category === source.category && c.end > c.start)
      .sort((a, b) => b.confidence - a.confidence || a.start - b.start)
      .slice(0, MAX_CLAUSES)
    const first = found[0]
    if (!first) return { state: 'not_found', reason: NOT_FOUND }
    return {
      state: 'answered',
      answer: { type: 'text', value: answerText(first.text) },
      citations: found.map(quoted),
    }
  }
  if (source.kind === 'deal' || source.term === 'term') {
    const key = source.kind === 'deal' ? source.line : 'term'
    const line = analysis.summary.dealSheet?.lines.find((l) => l.key === key)
    if (!line?.value) return { state: 'not_found', reason: NOT_FOUND }
    return {
      state: 'answered',
      answer: { type: 'text', value: answerText(line.value) },
      citations: line.citations.map(quoted),
    }
  }
  const terms = analysis.keyTerms
  switch (source.term) {
    case 'parties': {
      const parties = terms.parties.filter((p) => p.end > p.start && p.name.trim() !== '')
      if (parties.length === 0) return { state: 'not_found', reason: NOT_FOUND }
      return {
        state: 'answered',
        answer: {
          type: 'party',
          names: [...new Set(parties.map((p) => nameOf(p.name)))].slice(0, MAX_NAMES),
        },
        citations: parties.slice(0, 20).map((p) => citationOf(content, p)),
      }
    }
    case 'agreementDate':
    case 'effectiveDate':
    case 'expirationDate': {
      const term = terms[source.term]
      if (!term || !/^\d{4}-\d{2}-\d{2}$/.test(term.value))
        return { state: 'not_found', reason: NOT_FOUND }
      return cited(content, term, { type: 'date', value: term.value })
    }
    case 'renewalTerm':
    case 'noticePeriod': {
      const term = terms[source.term]
      const period = term ? durationIn(term.value) : null
      if (!term || !period) return { state: 'not_found', reason: NOT_FOUND }
      return cited(content, term, {
        type: 'duration',
        months: period.months,
        text: clipText(term.value, MAX_PERIOD_TEXT),
      })
    }
    case 'governingLaw': {
      const term = terms.governingLaw
      if (!term) return { state: 'not_found', reason: NOT_FOUND }
      return cited(content, term, { type: 'text', value: answerText(term.value) })
    }
  }
}

const quoted = (q: QuotedSpan): ReviewCitation => ({ start: q.start, end: q.end, text: q.text })

function cited(content: string, term: KeyTerm, answer: ReviewAnswer): CellOutcome {
  if (term.end <= term.start) return { state: 'not_found', reason: NOT_FOUND }
  return { state: 'answered', answer, citations: [citationOf(content, term)] }
}

/** The passages sharing most of `question`'s terms, best first (ties: earlier first). */
function bestPassages(passages: Passages, question: string, count: number) {
  const asked = [...new Set(termsOf(question))]
  return passages.chunks
    .map((chunk, i) => ({
      chunk,
      shared: asked.filter((term) => passages.terms[i]?.has(term)).length,
    }))
    .filter((p) => p.shared > 0)
    .sort((a, b) => b.shared - a.shared || a.chunk.start - b.chunk.start)
    .slice(0, count)
    .map((p) => ({ ...p, needed: Math.min(2, asked.length) }))
}

function fromQuestion(
  document: { id: string; title: string; content: string },
  passages: Passages,
  analysis: AnalysisResult | null,
  column: AnswerColumn,
): CellOutcome {
  const question = column.question ?? ''
  if (column.answerType === 'yes_no') {
    const best = bestPassages(passages, question, YES_NO_PASSAGES)
    const given: ChatPassage[] = best.map((p, i) => ({
      n: i + 1,
      title: document.title,
      content: p.chunk.text,
      documentId: document.id,
    }))
    const decided = decideYesNo(question, given)
    if (!decided)
      return { state: 'failed', reason: 'This is not a yes/no question ("Does…", "May…", "Is…").' }
    const deciding = decided.passage ? best[decided.passage.n - 1]?.chunk : undefined
    if (decided.decision === 'not-addressed' || !deciding)
      return { state: 'not_found', reason: 'Not addressed in this document.' }
    return {
      state: 'answered',
      answer: {
        type: 'yes_no',
        value: decided.decision === 'yes',
        ...(decided.unlessConsent ? { unlessConsent: true } : {}),
      },
      citations: [citationOf(document.content, deciding)],
    }
  }
  for (const { chunk, shared, needed } of bestPassages(passages, question, VALUE_PASSAGES)) {
    if (shared < needed) break
    const answer = valueIn(chunk, column.answerType, analysis)
    if (answer) {
      return { state: 'answered', answer, citations: [citationOf(document.content, chunk)] }
    }
  }
  return { state: 'not_found', reason: NOT_FOUND }
}

/** A value of `type` read from passage `chunk`, or null when it states none. */
function valueIn(
  chunk: TextChunk,
  type: AnswerType,
  analysis: AnalysisResult | null,
): ReviewAnswer | null {
  switch (type) {
    case 'date': {
      const date = datesIn(chunk.text, chunk.start)[0]
      return date ? { type: 'date', value: date.value } : null
    }
    case 'duration': {
      const period = durationIn(chunk.text)
      return period
        ? { type: 'duration', months: period.months, text: clipText(period.text, MAX_PERIOD_TEXT) }
        : null
    }
    case 'money': {
      const money = moneyIn(chunk.text)
      return money ? { type: 'money', amount: money.amount, currency: money.currency } : null
    }
    case 'party': {
      const named = (analysis?.keyTerms.parties ?? [])
        .map((p) => p.name)
        .filter((name) => name.length > 1 && chunk.text.includes(name))
      return named.length > 0
        ? { type: 'party', names: [...new Set(named.map(nameOf))].slice(0, MAX_NAMES) }
        : null
    }
    case 'list': {
      const items = chunk.text
        .split(/;|\n|\(\w{1,3}\)\s|•/)
        .map((item) =>
          item
            .replace(/\s+/g, ' ')
            .replace(/^(and|or)\s+/i, '')
            .trim(),
        )
        .filter((item) => item.length > 2)
        .map((item) => clipText(item, MAX_ITEM))
        .slice(0, 50)
      return items.length > 0 ? { type: 'list', items } : null
    }
    case 'text':
      return { type: 'text', value: answerText(chunk.text) }
    case 'yes_no':
      return null
  }
}

/**
 * Whether `analysis` was made of `content` as it stands: each quote it holds (clauses, deal-sheet
 * lines, summary sentences) is still the text's slice. A stored analysis of an earlier text (OCR
 * replaces a scan's text) is read again instead, so key terms, cited by span only, cite this text.
 */
export function analysisOfText(content: string, analysis: AnalysisResult): boolean {
  const quotes: QuotedSpan[] = [
    ...analysis.clauses,
    ...analysis.summary.sentences,
    ...(analysis.summary.dealSheet?.lines.flatMap((line) => line.citations) ?? []),
  ]
  return quotes.every((q) => content.slice(q.start, q.end) === q.text)
}
