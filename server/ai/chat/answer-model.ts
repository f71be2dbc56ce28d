/**
 * The learned half of a yes/no answer (decision 0130). The rule (decide-yes-no.ts) reads the
 * passages: the best candidate clause, its relevance and the polarity its wording gives (consent,
 * carve-outs, grants). Two logistic regressions read that reading, the question's form and the
 * passages' learned relevance (passage-relevance.ts):
 * - **addressed**: whether the document speaks to the question when the rule's fixed
 *   MIN_RELEVANCE cut (decision 0075) says it does not: "Not addressed" where the deciding words
 *   differ from the question's. A question the rule decides stays decided;
 * - **yes**: given that it does, whether the answer is Yes, from the rule's polarity and the
 *   deciding sentence's reading (modality, negation, consent, exceptions). It is trained and
 *   scored by the trainer but NOT used to decide: out of fold it raises Contradiction F1, yet it
 *   overrules clear readings ("shall not reverse engineer" → Yes to "may it reverse engineer?",
 *   ContractNLI's permission questions being mostly Entailment; decision 0130). The polarity
 *   is the rule's, or the polarity model's where the quoted reading leaves it open
 *   (polarity-model.ts, decision 0134), which sees the clause's reading and not the question's
 *   form.
 * Trained out of fold, split by NDA, on ContractNLI dev and train-extra by `npm run
 * train:answers` (scripts/train-answer-models.ts); weights in answer-model.json. Pure.
 */
import { readFileSync } from 'node:fs'
import { readClause } from '../analyzer/local/reading/read-clause'
import {
  passageRelevance,
  probability,
  relevanceQuestion,
  type LinearModel,
} from './passage-relevance'
import type { ChatPassage } from './types'
import type { YesNoQuestion } from './yes-no-question'

/** The two models; see the module's comment. */
export interface AnswerModel {
  addressed: LinearModel
  yes: LinearModel
  /** The passage relevance model the features are read with. */
  relevance?: LinearModel
  /**
   * The polarity model (polarity-model.ts, decision 0134) and how sure it must be to overrule the
   * rule; the committed one when absent.
   */
  polarity?: LinearModel & { confidence: number }
}

/** What the rule read (decide-yes-no.ts's RuleReading, the parts the features use). */
export interface RuleView {
  asked: YesNoQuestion
  relevance: number
  polarity: 'yes' | 'no' | null
  deciding: { passage: ChatPassage; sentence: string; held: readonly string[] } | null
  unlessConsent: boolean
  ruleDecision: 'yes' | 'no' | 'not-addressed'
  /** The wording cues of the deciding clause (decide-yes-no.ts); null when no clause. */
  cues: PolarityCues | null
}

/**
 * What the rule saw in the deciding clause when it read its polarity (the polarity model's
 * features, polarity-model.ts, decision 0134).
 */
export interface PolarityCues {
  /** A negation governs the asked act ("shall not disclose"). */
  negated: boolean
  /** A carve-out holds a term of the question ("except to its employees"). */
  carveOut: boolean
  /** An exclusion from the agreement's reach ("shall not apply to", "nothing … shall prevent"). */
  exclusion: boolean
  /** The clause is limited by "only / solely / exclusively / limited to". */
  restriction: boolean
  /** A grant in another clause overruled the best clause's prohibition. */
  grantElsewhere: boolean
}

/** The names of the features, in the models' weight order. */
export const ANSWER_FEATURES = [
  'bias',
  'rule-relevance',
  'rule-decided',
  'rule-yes',
  'rule-no',
  'no-candidate',
  'held-terms',
  'top-relevance',
  'max-relevance',
  'deciding-relevance',
  'deciding-rank',
  'asks-permission',
  'asks-negated',
  'asks-restriction',
  'asks-continuing',
  'asks-condition',
  'asks-other-than',
  'deciding-must',
  'deciding-may',
  'deciding-must-not',
  'deciding-freedom',
  'deciding-exception',
  'consent',
  'rule-no-to-permission',
  'rule-yes-to-negated',
] as const

/** The features of one question's reading; `relevance` is each passage's, in passage order. */
export function answerFeatures(read: RuleView, relevance: readonly number[]): number[] {
  const { asked, deciding } = read
  const reading = deciding ? readClause(deciding.sentence, []) : null
  const at = deciding ? Math.max(0, deciding.passage.n - 1) : -1
  const yes = read.polarity === 'yes' ? 1 : 0
  const no = read.polarity === 'no' ? 1 : 0
  return [
    1,
    read.relevance,
    read.ruleDecision === 'not-addressed' ? 0 : 1,
    yes,
    no,
    deciding ? 0 : 1,
    Math.min(deciding?.held.length ?? 0, 6) / 6,
    relevance[0] ?? 0,
    Math.max(0, ...relevance),
    at >= 0 ? (relevance[at] ?? 0) : 0,
    at >= 0 ? 1 / (1 + at) : 0,
    asked.permission ? 1 : 0,
    asked.negated ? 1 : 0,
    asked.restricted ? 1 : 0,
    asked.continuing ? 1 : 0,
    asked.condition.length > 0 ? 1 : 0,
    asked.otherThan ? 1 : 0,
    reading?.modality === 'must' ? 1 : 0,
    reading?.modality === 'may' ? 1 : 0,
    reading?.modality === 'must-not' ? 1 : 0,
    reading?.freedom ? 1 : 0,
    reading && reading.exceptions.length > 0 ? 1 : 0,
    read.unlessConsent ? 1 : 0,
    no * (asked.permission ? 1 : 0),
    yes * (asked.negated ? 1 : 0),
  ]
}

/** The committed models (answer-model.json, read by path beside the module). */
export const ANSWER_MODEL = JSON.parse(
  readFileSync(new URL('./answer-model.json', import.meta.url), 'utf8'),
) as AnswerModel

/**
 * Each passage's learned relevance to the question the rule read, the passages ranked as given
 * (ChatPassage.n order). The legal lexicon is the search's (a higher layer), so it is not read
 * here; the trainer scores the decision the same way.
 */
export function relevanceOfPassages(
  question: string,
  passages: readonly ChatPassage[],
  using?: LinearModel,
): number[] {
  return passageRelevance(
    relevanceQuestion(question),
    passages.map((p, rank) => ({ content: p.content, rank })),
    using,
  )
}

/**
 * The decision for what the rule read (`read`), the passages' learned `relevance` in passage
 * order: "not-addressed" when no clause is a candidate, or when the rule found none relevant
 * enough and `model`'s addressed model says below one half; otherwise the rule's polarity.
 */
export function learnedDecision(
  model: AnswerModel,
  read: RuleView,
  relevance: readonly number[],
): 'yes' | 'no' | 'not-addressed' {
  if (!read.deciding || read.polarity === null) return 'not-addressed'
  const features = answerFeatures(read, relevance)
  if (read.ruleDecision === 'not-addressed' && probability(model.addressed, features) < 0.5)
    return 'not-addressed'
  return read.polarity
}
