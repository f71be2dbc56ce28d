/**
 * A document's custom columns answered by the configured engine's column reader (decision 0142):
 * one structured request per document for all its custom columns, whatever their number. What is
 * sent is the whole text when it fits the engine's context (AI_ANALYSIS_CONTEXT_CHARS), else the
 * passages sharing most terms with the columns' questions (the offline answers' retrieval,
 * answer-document.ts), taken in turn per question until the context is full, in document order.
 * Each answer is normalised as the offline ones (review-answer.ts: dates ISO, periods in months,
 * money with its ISO 4217 currency, parties, lists); each quote is located verbatim in the
 * excerpts sent (exactly, else with whitespace runs as equal) and cited by its offsets in the
 * document. A cell with a quote that is not there, or with none, is `unverified` (never shown as an
 * answer), and the quotes not found are counted; an engine failure fails every custom cell of the
 * document with the engine's reason (retryable), never the fill.
 */
import { z } from 'zod'
import { locateQuote } from '../../ai/analyzer/shared/citations'
import { datesIn } from '../../ai/analyzer/local/dates'
import {
  ColumnReadError,
  type ColumnExcerpt,
  type ColumnReader,
  type ColumnValue,
} from '../../ai/analyzer/column-reader'
import { termsOf } from '../../ai/chat/yes-no-question'
import { chunkText } from '../../search/chunk-text'
import { clipText } from '../../search/char-boundary'
import { checked, type AnswerColumn, type CellOutcome } from './answer-document'
import {
  answerText,
  citationOf,
  currencyCode,
  durationIn,
  moneyIn,
  ReviewAnswer,
  type AnswerType,
  type ReviewCitation,
} from './review-answer'

/** What reading a document's custom columns gave. */
export interface CustomColumnsRead {
  /** The outcome of each custom column, by column id. */
  outcomes: Map<string, CellOutcome>
  /** Quotes the engine gave that are not in the excerpts sent (their cells are unverified). */
  droppedQuotes: number
  /** Whether only the most relevant passages were sent (the text is longer than the context). */
  excerpted: boolean
}

/**
 * Answers `columns` (custom ones: each has a question) of `document` with `reader` in one request.
 * Rejects only with the signal's reason when `signal` aborts; every engine failure becomes failed
 * cells with the engine's reason.
 */
export async function readCustomColumns(
  reader: ColumnReader,
  document: { content: string },
  columns: readonly AnswerColumn[],
  signal?: AbortSignal,
): Promise<CustomColumnsRead> {
  const { content } = document
  const outcomes = new Map<string, CellOutcome>()
  if (columns.length === 0) return { outcomes, droppedQuotes: 0, excerpted: false }
  const questions = columns.map((column, i) => ({
    key: `q${i + 1}`,
    question: column.question ?? '',
    answerType: column.answerType,
  }))
  const excerpted = content.length > reader.contextChars
  const excerpts = excerpted
    ? relevantExcerpts(
        content,
        questions.map((q) => q.question),
        reader.contextChars,
      )
    : [{ start: 0, text: content }]
  let readings
  try {
    readings = await reader.read(excerpts, questions, { signal })
  } catch (error) {
    if (signal?.aborted) throw error
    const reason =
      error instanceof ColumnReadError
        ? error.reason
        : 'The AI engine failed on this document; retry the cell.'
    for (const column of columns) outcomes.set(column.id, { state: 'failed', reason })
    return { outcomes, droppedQuotes: 0, excerpted }
  }
  let droppedQuotes = 0
  columns.forEach((column, i) => {
    const reading = readings.find((r) => r.key === questions[i]?.key)
    if (!reading || reading.value === null) {
      outcomes.set(column.id, { state: 'not_found', reason: 'Not found in this document.' })
      return
    }
    const citations: ReviewCitation[] = []
    let missing = 0
    for (const quote of reading.quotes) {
      const span = locateIn(excerpts, quote)
      if (span) citations.push(citationOf(content, span))
      else missing += 1
    }
    droppedQuotes += missing
    if (missing > 0 || citations.length === 0) {
      outcomes.set(column.id, {
        state: 'unverified',
        reason:
          missing > 0
            ? 'The engine quoted a passage that is not in the document.'
            : 'The engine gave no passage for this answer.',
      })
      return
    }
    const answer = normalisedAnswer(column.answerType, reading.value, citations)
    outcomes.set(
      column.id,
      answer
        ? checked(content, { state: 'answered', answer, citations })
        : {
            state: 'unverified',
            reason: `The engine's answer could not be read as a ${TYPE_NAMES[column.answerType]}.`,
          },
    )
  })
  return { outcomes, droppedQuotes, excerpted }
}

const TYPE_NAMES: Record<AnswerType, string> = {
  yes_no: 'yes or no',
  date: 'date',
  duration: 'period',
  money: 'amount of money',
  party: 'party',
  text: 'text',
  list: 'list',
}

/** `quote`'s span in the document: located in the first excerpt that holds it, else null. */
function locateIn(excerpts: readonly ColumnExcerpt[], quote: string) {
  for (const excerpt of excerpts) {
    const span = locateQuote(excerpt.text, quote)
    if (span) return { start: excerpt.start + span.start, end: excerpt.start + span.end }
  }
  return null
}

/**
 * The passages of `content` most relevant to `questions`, at most `maxChars` characters in all
 * (counting the gaps marked between excerpts), in document order, adjacent ones joined. Each
 * question's passages are ranked by the number of its terms they share (as the offline answers
 * rank them; ties: earlier first) and taken in turn, a passage of each question per round, so no
 * question is left without its best passages; the rest of the room goes to the opening passages
 * (where parties and dates stand). Each excerpt's `text` is `content.slice(start, start + length)`.
 */
export function relevantExcerpts(
  content: string,
  questions: readonly string[],
  maxChars: number,
): ColumnExcerpt[] {
  const chunks = chunkText(content)
  const termsOfChunk = chunks.map((c) => new Set(termsOf(c.text)))
  const ranked = questions.map((question) => {
    const asked = [...new Set(termsOf(question))]
    return chunks
      .map((_, i) => ({ i, shared: asked.filter((t) => termsOfChunk[i]?.has(t)).length }))
      .filter((p) => p.shared > 0)
      .sort((a, b) => b.shared - a.shared || a.i - b.i)
      .map((p) => p.i)
  })
  const order = [...interleave(ranked), ...chunks.keys()]
  const chosen = new Set<number>()
  let used = 0
  for (const i of order) {
    const chunk = chunks[i]
    if (!chunk || chosen.has(i)) continue
    const cost = chunk.end - chunk.start + GAP_CHARS
    if (used + cost > maxChars) continue
    chosen.add(i)
    used += cost
  }
  const excerpts: { start: number; end: number }[] = []
  for (const i of [...chosen].sort((a, b) => a - b)) {
    const chunk = chunks[i]!
    const last = excerpts.at(-1)
    if (last && content.slice(last.end, chunk.start).trim() === '') last.end = chunk.end
    else excerpts.push({ start: chunk.start, end: chunk.end })
  }
  return excerpts.map((e) => ({ start: e.start, text: content.slice(e.start, e.end) }))
}

/** Room counted per passage for the mark between excerpts (EXCERPT_GAP, with some spare). */
const GAP_CHARS = 8

/** The lists' items taken in turn: first of each, then second of each, … */
function* interleave(lists: readonly number[][]): Generator<number> {
  const longest = Math.max(0, ...lists.map((l) => l.length))
  for (let round = 0; round < longest; round += 1)
    for (const list of lists) {
      const item = list[round]
      if (item !== undefined) yield item
    }
}

const IsoDate = z.iso.date()

/**
 * The engine's `value` for a column of `type` as a normalised answer (as the offline answers':
 * review-answer.ts), or null when it is not one: a date not ISO is read as written (datesIn), a
 * period in months (durationIn), money with an ISO 4217 code (else the amount in the cited text),
 * names and items trimmed and deduplicated, text cut to the answer's limit.
 */
export function normalisedAnswer(
  type: AnswerType,
  value: ColumnValue,
  citations: readonly ReviewCitation[] = [],
): ReviewAnswer | null {
  const answer = ((): unknown => {
    switch (type) {
      case 'yes_no':
        return typeof value === 'boolean' ? { type, value } : null
      case 'date': {
        if (typeof value !== 'string') return null
        const iso = IsoDate.safeParse(value.trim())
        const date = iso.success ? iso.data : datesIn(value, 0)[0]?.value
        return date ? { type, value: date } : null
      }
      case 'duration': {
        const period = typeof value === 'string' ? durationIn(value) : null
        return period ? { type, months: period.months, text: period.text } : null
      }
      case 'money': {
        if (typeof value === 'object' && !Array.isArray(value)) {
          const currency = currencyCode(value.currency)
          if (currency && Number.isFinite(value.amount) && value.amount >= 0)
            return { type, amount: value.amount, currency }
        }
        const read = citations.map((c) => moneyIn(c.text)).find((m) => m !== null)
        return read ? { type, amount: read.amount, currency: read.currency } : null
      }
      case 'party':
      case 'list': {
        if (!Array.isArray(value)) return null
        const items = [...new Set(value.map((v) => v.replace(/\s+/g, ' ').trim()))].filter(
          (v) => v !== '',
        )
        if (items.length === 0) return null
        return type === 'party'
          ? { type, names: items.slice(0, 20).map((v) => clipText(v, 300)) }
          : { type, items: items.slice(0, 50).map((v) => clipText(v, 500)) }
      }
      case 'text':
        return typeof value === 'string' && value.trim() !== ''
          ? { type, value: answerText(value) }
          : null
    }
  })()
  const parsed = ReviewAnswer.safeParse(answer)
  return parsed.success ? parsed.data : null
}
