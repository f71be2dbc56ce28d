/**
 * How likely a retrieved passage answers a question, learned (decision 0130): a logistic
 * regression over features of the question and the passage as the reading layer sees them
 * (the question's weighted terms held, in the passage or in its best sentence; the legal
 * lexicon's terms for the question's plain words; what kind of block the passage is; whether its
 * best sentence has a modal and the question's act as its verb; its search rank). It is trained
 * out of fold, split by NDA, on ContractNLI's dev and train-extra files by
 * `npm run train:answers` (scripts/train-answer-models.ts): a passage is positive when it
 * overlaps a gold evidence span of the question. The weights are in passage-relevance-model.json.
 * Pure; never throws.
 */
import { readFileSync } from 'node:fs'
import { blockKind } from '../analyzer/local/structure/block-kind'
import { readClause } from '../analyzer/local/reading/read-clause'
import { associationOf, type TermAssociation } from './term-association'
import { termsOf } from './yes-no-question'

/** The names of the features, in the order of the model's weights. */
export const RELEVANCE_FEATURES = [
  'bias',
  'inverse-rank',
  'log-rank',
  'held-share',
  'held-count',
  'all-held',
  'sentence-share',
  'sentence-held',
  'lexicon-held',
  'condition-held',
  'act-is-verb',
  'modal',
  'negation',
  'exception',
  'operative',
  'definition',
  'furniture',
  'log-length',
  'association-mean',
  'association-max',
] as const

/** A linear model over named features; see RELEVANCE_FEATURES. */
export interface LinearModel {
  features: readonly string[]
  weights: readonly number[]
}

/** The relevance model: its weights and the term association its features read (decision 0150). */
export interface RelevanceModel extends LinearModel {
  association?: TermAssociation
}

/** The question read once for all its passages. */
export interface RelevanceQuestion {
  /** Its content-term stems (termsOf), distinct. */
  terms: string[]
  /** The stems of its legal-lexicon terms not among `terms` (plain words → drafting words). */
  lexicon: string[]
  /** The stems of its condition ("upon termination"), when it sets one. */
  condition: string[]
}

/** A passage among the candidates: its text and its rank in the search (0 = best). */
export interface RankedPassage {
  content: string
  rank: number
}

const CONDITION =
  /\b(?:upon|after|following|in case|in the event(?: that| of)?|if|when|once)\s+([^,;?]*)/i
const MODAL = /\b(?:shall|will|may|must|agrees?|undertakes?|is entitled|are entitled)\b/i
const NEGATION = /\b(?:not|no|never|neither|nor|nothing|without)\b/i
const EXCEPTION =
  /\b(?:except|unless|provided(?:,)? (?:however|that)|subject to|notwithstanding|other than)\b/i
const FURNITURE = new Set(['heading', 'section-heading', 'page-furniture', 'contents', 'signature'])

/** `question` read for relevance; `lexicon` gives the legal lexicon's terms for it. */
export function relevanceQuestion(
  question: string,
  lexicon: (question: string) => string[] = () => [],
): RelevanceQuestion {
  const terms = [...new Set(termsOf(question))]
  const own = new Set(terms)
  return {
    terms,
    lexicon: [...new Set(lexicon(question).flatMap((t) => termsOf(t)))].filter((t) => !own.has(t)),
    condition: [...new Set(termsOf(CONDITION.exec(question)?.[1] ?? ''))],
  }
}

/** The share of `weights` held by `terms` and how many distinct ones. */
function held(weights: ReadonlyMap<string, number>, terms: ReadonlySet<string>) {
  let total = 0
  let found = 0
  let count = 0
  for (const [term, weight] of weights) {
    total += weight
    if (terms.has(term)) {
      found += weight
      count += 1
    }
  }
  return { share: total === 0 ? 0 : found / total, count }
}

/**
 * The feature vectors of `passages` for `question` (one per passage, in RELEVANCE_FEATURES'
 * order). Term weights are inverse document frequencies over the passages themselves, so a term
 * every candidate holds (a party's name) weighs little.
 */
export function relevanceFeatures(
  question: RelevanceQuestion,
  passages: readonly RankedPassage[],
  association?: TermAssociation,
): number[][] {
  // A passage's terms are its sentences' (termsOf never reads across the whitespace a sentence
  // ends at), so each word is read once.
  const sentences = passages.map((p) =>
    p.content.split(/(?<=[.;:!?])\s+/).map((text) => ({ text, terms: new Set(termsOf(text)) })),
  )
  const sets = sentences.map((list) => new Set(list.flatMap((s) => [...s.terms])))
  const n = sets.length
  const weights = new Map(
    question.terms.map((t) => {
      const df = sets.filter((s) => s.has(t)).length
      return [t, Math.log(1 + (n + 1) / (df + 0.5))]
    }),
  )
  const act = question.terms.filter((t) => !question.condition.includes(t))
  return passages.map((passage, i) => {
    const terms = sets[i]!
    const whole = held(weights, terms)
    let best = { share: 0, count: 0, sentence: passage.content }
    for (const sentence of sentences[i]!) {
      const h = held(weights, sentence.terms)
      if (h.share > best.share) best = { ...h, sentence: sentence.text }
    }
    const reading = readClause(best.sentence, [])
    const verb = reading.action ? termsOf(reading.action)[0] : undefined
    const kind = blockKind(passage.content.trim())
    const associated = associationOf(association, question.terms, terms)
    return [
      1,
      1 / (1 + passage.rank),
      Math.log(1 + passage.rank),
      whole.share,
      Math.min(whole.count, 6) / 6,
      whole.count === weights.size && weights.size > 0 ? 1 : 0,
      best.share,
      Math.min(best.count, 6) / 6,
      question.lexicon.length === 0
        ? 0
        : question.lexicon.filter((t) => terms.has(t)).length / question.lexicon.length,
      question.condition.length === 0
        ? 0
        : question.condition.filter((t) => terms.has(t)).length / question.condition.length,
      verb !== undefined && act.includes(verb) ? 1 : 0,
      MODAL.test(best.sentence) ? 1 : 0,
      NEGATION.test(best.sentence) ? 1 : 0,
      EXCEPTION.test(best.sentence) ? 1 : 0,
      kind === 'operative' ? 1 : 0,
      kind === 'definition' ? 1 : 0,
      FURNITURE.has(kind) ? 1 : 0,
      Math.log(1 + passage.content.length) / 8,
      associated.mean,
      associated.max,
    ]
  })
}

/** The logistic of a linear model's score for one feature vector, 0..1. */
export function probability(model: LinearModel, features: readonly number[]): number {
  let z = 0
  for (let i = 0; i < features.length; i += 1) z += (model.weights[i] ?? 0) * features[i]!
  return 1 / (1 + Math.exp(-z))
}

/**
 * The committed relevance model (passage-relevance-model.json, read by path as the clause model
 * is, so the built server finds it beside the module).
 */
export const RELEVANCE_MODEL = JSON.parse(
  readFileSync(new URL('./passage-relevance-model.json', import.meta.url), 'utf8'),
) as RelevanceModel

/**
 * The probability that each of `passages` answers `question` under `using` (the committed model
 * unless a test passes another), in the passages' order.
 */
export function passageRelevance(
  question: RelevanceQuestion,
  passages: readonly RankedPassage[],
  using: RelevanceModel = RELEVANCE_MODEL,
): number[] {
  if (passages.length === 0) return []
  return relevanceFeatures(question, passages, using.association).map((f) => probability(using, f))
}
