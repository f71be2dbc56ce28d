/**
 * The local engine's clause detector: scores every sentence with the trained per-category
 * classifiers (model.json, built by scripts/train-clauses.ts from CUAD v1, The Atticus Project,
 * Hendrycks et al. 2021, CC BY 4.0) and quotes the best sentences of each category found.
 */
import { readFileSync } from 'node:fs'
import type { Clause, QuotedSpan } from '../../types'
import { documentStructure } from '../structure/document-structure'
import {
  compileClauseModel,
  documentScore,
  MAX_QUOTES,
  presenceFeatures,
  presenceProbability,
  scoreSentences,
  type ClauseModel,
} from './clause-model'
import { quoteRanges } from './quote-ranges'
import type { CompiledClauseModel } from './clause-model'
import { sentenceFeatures } from './sentence-features'

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
 * `confidence` the best quoted sentence's probability (0..1); at most MAX_QUOTES per category,
 * sorted by start. A category is reported when its presence model's probability (the sentence
 * evidence aggregated over the document, headings included: a "NON-COMPETITION" heading is
 * evidence the clause is there; decision 0139) reaches its cross-validated presence threshold, or,
 * for a model without one, when its document score reaches its threshold.
 * Only operative sentences are quoted (documentStructure; never a heading, definition, recital,
 * preamble, signature block or page furniture, decision 0113): the best-scoring one, then the
 * others whose probability reaches the category's cross-validated citeThreshold; each quote takes
 * in the adjacent operative sentences that reach the model's extendThreshold, at most its
 * extendSentences either side (quote-ranges.ts, decisions 0129 and 0132), so a quote may span several sentences. A category whose
 * evidence is all non-operative is not reported. Pure and synchronous; `model` is for evaluation
 * with held-out models and defaults to the committed one.
 */
export function detectClauses(
  content: string,
  sentences: readonly QuotedSpan[],
  model: CompiledClauseModel = defaultModel,
): Clause[] {
  const typed = documentStructure(sentences)
  const probabilities = scoreSentences(model, sentenceFeatures(sentences, typed))
  const citable = typed.flatMap((sentence, s) => (sentence.kind === 'operative' ? [s] : []))
  const isCitable = (s: number) => typed[s]?.kind === 'operative'
  const isHeading = (s: number) =>
    typed[s]?.kind === 'heading' || typed[s]?.kind === 'section-heading'
  const clauses: Clause[] = []
  model.names.forEach((category, c) => {
    const threshold = model.thresholds[c] ?? 1
    const column = probabilities.map((row) => row[c] ?? 0)
    if (!isPresent(model, c, column, isCitable, isHeading)) return
    const ranked = citable
      .map((s) => ({ s, p: column[s] ?? 0 }))
      .sort((a, b) => b.p - a.p || a.s - b.s)
    const citeFloor = model.citeThresholds[c] ?? threshold
    const quoted = ranked
      .filter((hit, rank) => rank === 0 || hit.p >= citeFloor)
      .slice(0, MAX_QUOTES)
      .map(({ s }) => s)
    const ranges = quoteRanges(
      quoted,
      column,
      isCitable,
      model.extendThreshold,
      model.extendSentences,
    )
    for (const [from, to] of ranges) {
      const first = sentences[from]
      const last = sentences[to]
      if (!first || !last) continue
      // The quote's confidence is that of its best sentence.
      let p = 0
      for (let s = from; s <= to; s += 1) p = Math.max(p, column[s] ?? 0)
      clauses.push({
        start: first.start,
        end: last.end,
        text: content.slice(first.start, last.end),
        category,
        confidence: Math.round(p * 1000) / 1000,
      })
    }
  })
  return clauses.sort((a, b) => a.start - b.start || a.category.localeCompare(b.category))
}

/**
 * Whether category c is in the document: with a presence model, its probability from the
 * aggregated sentence evidence reaches the category's presenceThreshold (decision 0139); without
 * one, the documentScore reaches the category's threshold (decision 0113).
 */
function isPresent(
  model: CompiledClauseModel,
  c: number,
  column: readonly number[],
  operative: (s: number) => boolean,
  heading: (s: number) => boolean,
): boolean {
  if (model.presenceWeights) {
    const features = presenceFeatures(column, operative, heading)
    const p = presenceProbability(model.presenceWeights, model.presenceBiases[c] ?? 0, features)
    return p >= (model.presenceThresholds[c] ?? 1)
  }
  return documentScore(model.secondSentenceWeight, column) >= (model.thresholds[c] ?? 1)
}
