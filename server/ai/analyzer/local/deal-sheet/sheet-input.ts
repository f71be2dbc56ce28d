/** What every deal-sheet rule reads, and the small helpers they share. */
import type { Clause, KeyTerms, QuotedSpan, Span } from '../../types'
import { blockKind } from '../structure/block-kind'

/**
 * The analysed contract: `sentences` from segmentSentences(content), `clauses` from
 * detectClauses, `keyTerms` from extractKeyTerms; every span indexes `content`.
 */
export interface SheetInput {
  content: string
  sentences: readonly QuotedSpan[]
  clauses: readonly Clause[]
  keyTerms: KeyTerms
}

/** A line's finding: its value and the quotes it was read from; null when not found. */
export type LineFinding = { value: string; citations: QuotedSpan[] } | null

/** The exact quote of `span` in `content`. */
export function quote(content: string, span: Span): QuotedSpan {
  return { start: span.start, end: span.end, text: content.slice(span.start, span.end) }
}

/** The sentence that holds offset `at`, or null (between sentences). */
export function sentenceAt(sentences: readonly QuotedSpan[], at: number): QuotedSpan | null {
  return sentences.find((s) => s.start <= at && at < s.end) ?? null
}

/** Quotes in document order without repeats or overlaps (the first of two overlapping wins). */
export function distinctQuotes(quotes: readonly (QuotedSpan | null | undefined)[]): QuotedSpan[] {
  const kept: QuotedSpan[] = []
  for (const q of quotes) {
    if (!q || kept.some((k) => k.start < q.end && q.start < k.end)) continue
    kept.push({ start: q.start, end: q.end, text: q.text })
  }
  return kept.sort((a, b) => a.start - b.start)
}

/** Whitespace collapsed: the form a value or a test compares text in. */
export function flat(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

/**
 * Sentences that state a rule rather than a heading, a definition, a recital, the preamble, a
 * signature block, page furniture (blockKind, decision 0110) or a table row: at least six words,
 * mostly lower case, no longer than 1,200 characters (longer "sentences" are unsplit runs of a PDF
 * and would make unreadable citations).
 */
export function isOperative(sentence: QuotedSpan): boolean {
  // Every line's rule asks this of every sentence: read each sentence object once.
  const known = OPERATIVE.get(sentence)
  if (known !== undefined) return known
  const operative = readsOperative(sentence)
  OPERATIVE.set(sentence, operative)
  return operative
}

/** isOperative's answers, by sentence object (the sheet's input spans outlive one call). */
const OPERATIVE = new WeakMap<QuotedSpan, boolean>()

function readsOperative(sentence: QuotedSpan): boolean {
  const text = flat(sentence.text)
  const words = text.match(/\p{L}+/gu) ?? []
  if (words.length < 6 || text.length > 1_200) return false
  if (blockKind(text) !== 'operative') return false
  return words.filter((w) => /\p{Ll}/u.test(w)).length / words.length >= 0.5
}

/** The operative sentences matching every one of `patterns`, in document order. */
export function sentencesWith(input: SheetInput, ...patterns: readonly RegExp[]): QuotedSpan[] {
  return input.sentences.filter((s) => isOperative(s) && patterns.every((re) => re.test(s.text)))
}

/** The detected clauses of the given CUAD categories, best confidence first. */
export function clausesOf(input: SheetInput, categories: readonly string[]): Clause[] {
  return input.clauses
    .filter((c) => categories.includes(c.category))
    .sort((a, b) => b.confidence - a.confidence)
}
