/**
 * The column reader: answers a review's custom columns (issue 44, decision 0142) for one document
 * in a single request to the configured analysis engine, when it is OpenAI-compatible; offline
 * there is none (the reviews feature answers custom columns by rule, decision 0137). The reader
 * returns what the model said, raw: each question's value in its answer type (or null when the
 * excerpts do not state it) and the passages it quoted. Normalising values and locating the
 * quotes in the document are the caller's, who knows which excerpts it sent.
 */

/** The answer types a column may ask for (as the reviews feature's `answer_type`). */
export type ColumnAnswerType = 'yes_no' | 'date' | 'duration' | 'money' | 'party' | 'text' | 'list'

/** One question: `key` names it in the answer (short, `[a-z0-9_]`), unique in a request. */
export interface ColumnQuestion {
  key: string
  question: string
  answerType: ColumnAnswerType
}

/** A part of the document sent to the model: its text and the offset of its first character. */
export interface ColumnExcerpt {
  start: number
  text: string
}

/**
 * A value as the model gives it, by answer type: yes_no a boolean; date an ISO 8601 date string
 * (as asked; not checked); duration the period as worded; money `{ amount, currency }`; party
 * and list arrays of strings; text a string.
 */
export type ColumnValue = boolean | string | string[] | { amount: number; currency: string }

/** One question's reading: `value` null when the excerpts do not state it. */
export interface ColumnReading {
  key: string
  value: ColumnValue | null
  /** Passages the model says it copied verbatim from the excerpts (checked by the caller). */
  quotes: string[]
}

/**
 * The engine failed to answer (timeout, HTTP error, an answer that is not JSON of the asked
 * shape). `reason` is a sentence for a cell's reason: it names the fault, never the provider's
 * message (which may hold addresses) nor the answer's text (which may quote the document).
 */
export class ColumnReadError extends Error {
  override readonly name = 'ColumnReadError'
  constructor(readonly reason: string) {
    super(reason)
  }
}

export interface ColumnReader {
  readonly engine: string
  /** Characters of a document the engine reads in one request (AI_ANALYSIS_CONTEXT_CHARS). */
  readonly contextChars: number
  /**
   * One structured request answering every question of `questions` from `excerpts`; resolves to
   * one reading per question, in their order. Rejects with ColumnReadError when the engine fails,
   * and with the signal's reason when `signal` aborts (the request is aborted too).
   */
  read(
    excerpts: readonly ColumnExcerpt[],
    questions: readonly ColumnQuestion[],
    options?: { signal?: AbortSignal },
  ): Promise<ColumnReading[]>
}
