/**
 * The local engine's clause detector: scores every sentence with the trained per-category
 * classifiers (model.json, built by scripts/train-clauses.ts from CUAD v1, The Atticus Project,
 * Hendrycks et al. 2021, CC BY 4.0) and quotes the best sentences of each category found.
 */
import { readFileSync } from 'node:fs'
import type { Clause, QuotedSpan } from '../../types'
import { compileClauseModel, documentScore, scoreSentences, type ClauseModel } from './clause-model'
import type { CompiledClauseModel } from './clause-model'
import { sentenceFeatures } from './sentence-features'

/** At most this many passages are quoted per category, so one clause type cannot flood a result. */
const MAX_PASSAGES_PER_CATEGORY = 3

// Read once at module load with fs rather than a JSON import, so the type checker does not have to
// infer a type for thousands of weights.
const defaultModel: CompiledClauseModel = compileClauseModel(
  JSON.parse(readFileSync(new URL('./model.json', import.meta.url), 'utf8')) as ClauseModel,
)

/**
 * Finds CUAD clause categories (the 35 clause categories and Governing Law) in `content`.
 *
 * `sentences` are segmentSentences(content) (any document-ordered spans into `content` work).
 * Returns Clause items with `text === content.slice(start, end)`, `category` an exact CUAD name,
 * `confidence` the sentence's probability (0..1); at most three per category, sorted by start. A
 * category is reported when its document score reaches its cross-validated threshold T; then the
 * sentences with probability at least T / (1 + secondSentenceWeight) are quoted, which always
 * includes the best one. Pure and synchronous; `model` is for
 * evaluation with held-out models and defaults to the committed one.
 */
export function detectClauses(
  content: string,
  sentences: readonly QuotedSpan[],
  model: CompiledClauseModel = defaultModel,
): Clause[] {
  const probabilities = scoreSentences(model, sentenceFeatures(sentences))
  const clauses: Clause[] = []
  model.names.forEach((category, c) => {
    const threshold = model.thresholds[c] ?? 1
    const column = probabilities.map((row) => row[c] ?? 0)
    if (documentScore(model.secondSentenceWeight, column) < threshold) return
    const quoteFloor = threshold / (1 + model.secondSentenceWeight)
    const hits: { sentence: QuotedSpan; p: number }[] = []
    probabilities.forEach((row, s) => {
      const p = row[c] ?? 0
      const sentence = sentences[s]
      if (sentence && p >= quoteFloor) hits.push({ sentence, p })
    })
    hits.sort((a, b) => b.p - a.p)
    for (const { sentence, p } of hits.slice(0, MAX_PASSAGES_PER_CATEGORY)) {
      clauses.push({
        start: sentence.start,
        end: sentence.end,
        text: content.slice(sentence.start, sentence.end),
        category,
        confidence: Math.round(p * 1000) / 1000,
      })
    }
  })
  return clauses.sort((a, b) => a.start - b.start || a.category.localeCompare(b.category))
}
