/**
 * The memo mode of `npm run eval:summary` (decision 0056): how far memo summaries are from the
 * transcript they summarise.
 */
import { segmentSentences } from '../server/ai/analyzer/local/sentences'
import { normalizeForCompare } from '../server/ai/memo/condense'
import type { MemoSummary } from '../server/ai/memo/memo-summary'

/** The figures of one transcript, or of several added up. */
export interface MemoScores {
  /** Summary lines: key points, decisions and action items (names are not sentences). */
  lines: number
  /** Lines equal to a transcript sentence after lower-casing and dropping punctuation. */
  copies: number
  /** Lines whose words appear, in order and contiguous, in the transcript (a cut-out piece). */
  contained: number
  summaryChars: number
  transcriptChars: number
}

/** The figures of `summary` against `transcript` (its whole text). */
export function memoScores(transcript: string, summary: MemoSummary): MemoScores {
  const lines = [...summary.keyPoints, ...summary.decisions, ...summary.actionItems].map(
    (p) => p.text,
  )
  const sentences = new Set(segmentSentences(transcript).map((s) => normalizeForCompare(s.text)))
  const whole = ` ${normalizeForCompare(transcript)} `
  return {
    lines: lines.length,
    copies: lines.filter((line) => sentences.has(normalizeForCompare(line))).length,
    contained: lines.filter((line) => whole.includes(` ${normalizeForCompare(line)} `)).length,
    summaryChars: lines.join(' ').length,
    transcriptChars: transcript.trim().length,
  }
}

/** `scores` added up. */
export function addScores(scores: readonly MemoScores[]): MemoScores {
  return scores.reduce(
    (sum, s) => ({
      lines: sum.lines + s.lines,
      copies: sum.copies + s.copies,
      contained: sum.contained + s.contained,
      summaryChars: sum.summaryChars + s.summaryChars,
      transcriptChars: sum.transcriptChars + s.transcriptChars,
    }),
    { lines: 0, copies: 0, contained: 0, summaryChars: 0, transcriptChars: 0 },
  )
}
