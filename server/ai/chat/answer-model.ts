/**
 * The learned half of a yes/no answer (decision 0130). The rule (decide-yes-no.ts) reads the
 * passages: the best candidate clause, its relevance and the polarity its wording gives (consent,
 * carve-outs, grants). Two logistic regressions read that reading, the question's form and the
 * passages' learned relevance (passage-relevance.ts):
 * - **addressed**: whether the document speaks to the question when the rule's fixed
 *   MIN_RELEVANCE cut (decision 0075) says it does not: "Not addressed" where the deciding words
 *   differ from the question's, or where no clause is a candidate and the best holder of the
 *   asked act is read instead (RuleView.loose); and whether a Yes the rule decided comes from a
 *   clause that only shares the question's words (withdrawn, unless the sentence speaks to it on
 *   its face; a No stays). Thresholds in AnswerModel.thresholds (decision 0141);
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
import { blockKind } from '../analyzer/local/structure/block-kind'
import {
  passageRelevance,
  probability,
  relevanceQuestion,
  type LinearModel,
  type RelevanceModel,
} from './passage-relevance'
import type { ChatPassage } from './types'
import type { YesNoQuestion } from './yes-no-question'

/** The two models; see the module's comment. */
export interface AnswerModel {
  addressed: LinearModel
  yes: LinearModel
  /**
   * How sure the addressed model must be to answer where the rule's cut says "not addressed",
   * and below which it withdraws a Yes or a No the rule decided; KEEP_RULE (0130's) when absent.
   * Chosen out of fold by the trainer (decision 0141).
   */
  thresholds?: AddressedThresholds
  /** The passage relevance model the features are read with. */
  relevance?: RelevanceModel
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
  /** What the passages and the deciding clause hold of the question (decision 0141). */
  speaks?: SpeakingTo
  /** The deciding clause is no candidate of the rule, only the best holder of the act. */
  loose?: boolean
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

/**
 * What the passages hold of the question and whether the deciding clause speaks to what is asked
 * rather than sharing its generic words (read by decide-yes-no.ts; the addressed model's features
 * of decision 0141). Term weights are the rule's: rarity among the given passages.
 */
export interface SpeakingTo {
  /** The share (0..1) of the question's term weight that no passage holds at all. */
  unseen: number
  /**
   * The deciding sentence holds the question's most specific term: of the terms some passage
   * holds, the one the fewest passages hold (ties: any of them). False when no clause.
   */
  keyHeld: boolean
  /** The share (0..1) of the question's term weight the deciding sentence holds (0 when none). */
  sentenceShare: number
  /** The share (0..1) of the question's act terms (outside its condition) the sentence holds. */
  actShare: number
  /** The share (0..1) of the passages with a clause holding two question terms. */
  spread: number
  /** The deciding sentence's verb is the asked act (polarity-model.ts, actionMatched). */
  actIsVerb: boolean
  /** The share (0..1) of the question's role phrases the deciding sentence holds (1: none asked). */
  roleShare: number
  /**
   * The deciding sentence holds a question term within ROLE_NEAR_WORDS words of one of the
   * question's role phrases ("Confidential Information … marked or identified"), so the act it
   * names concerns what the question asks about (decision 0155).
   */
  roleNear: boolean
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
  'unseen-terms',
  'key-term-held',
  'sentence-share',
  'act-share',
  'spread',
  'action-matched',
  'definition',
  'furniture',
  'sentence-length',
  'loose',
  'role-share',
  'role-near',
] as const

/** "X means", "X includes": a definition, which speaks to what it covers. */
const DEFINITION = /\bmeans\b|\bshall (?:mean|include)\b|\bincludes?\b|\bdefined\b/i

/** Block kinds that are not a clause's words (a heading, a signature block). */
const FURNITURE = new Set(['heading', 'section-heading', 'page-furniture', 'contents', 'signature'])

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
    read.speaks?.unseen ?? 0,
    read.speaks?.keyHeld ? 1 : 0,
    read.speaks?.sentenceShare ?? 0,
    read.speaks?.actShare ?? 0,
    read.speaks?.spread ?? 0,
    read.speaks?.actIsVerb ? 1 : 0,
    deciding && DEFINITION.test(deciding.sentence) ? 1 : 0,
    deciding && FURNITURE.has(blockKind(deciding.sentence.trim())) ? 1 : 0,
    deciding ? Math.log(1 + deciding.sentence.length) / 8 : 0,
    read.loose ? 1 : 0,
    read.speaks?.roleShare ?? 0,
    read.speaks?.roleNear ? 1 : 0,
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
  using?: RelevanceModel,
): number[] {
  return passageRelevance(
    relevanceQuestion(question),
    passages.map((p, rank) => ({ content: p.content, rank })),
    using,
  )
}

/** A sentence holding this share of the question's term weight holds all of it (rounding). */
const WHOLE_QUESTION = 0.999

/** The addressed model's thresholds (see AnswerModel.thresholds). */
export interface AddressedThresholds {
  /** Answer where the rule's cut found nothing relevant enough from this probability up. */
  add: number
  /** Withdraw a Yes the rule decided below this probability (0: never). */
  withdrawYes: number
  /** Withdraw a No the rule decided below this probability (0: never). */
  withdrawNo: number
}

/** 0130's thresholds: answer from one half, never withdraw a decision of the rule. */
export const KEEP_RULE: AddressedThresholds = { add: 0.5, withdrawYes: 0, withdrawNo: 0 }

/**
 * Whether the document addresses the question, given what the rule read (`read`), the addressed
 * model's probability `p` and `thresholds`. A Yes and a No are withdrawn at their own thresholds
 * (a wrongly withdrawn No costs the rarer class), and never from a sentence that speaks to the
 * question on its face: its verb is the asked act, or it holds every term of the question ("Upon
 * termination the Recipient shall return all Confidential Information" to "must it return …
 * upon termination?"; a definition "… whether in writing or orally" to "is oral information
 * covered?"), whatever the dataset's habits for that question. For a question of one content
 * term, holding it is no answer on its face unless it is the sentence's verb: the one word is as
 * often a coincidence ("the purposes identified herein" to "must Confidential Information be
 * expressly identified?", decision 0150), so the model decides. `read.asked` absent: the
 * question is taken to have several terms.
 */
export function addressedAt(
  read: Pick<RuleView, 'ruleDecision' | 'speaks'> & { asked?: Pick<YesNoQuestion, 'terms'> },
  p: number,
  thresholds: AddressedThresholds = KEEP_RULE,
): boolean {
  if (read.ruleDecision === 'not-addressed') return p >= thresholds.add
  const onItsFace =
    read.speaks !== undefined &&
    (read.speaks.actIsVerb ||
      (read.speaks.sentenceShare >= WHOLE_QUESTION && (read.asked?.terms.length ?? 2) >= 2))
  if (onItsFace) return true
  return p >= (read.ruleDecision === 'yes' ? thresholds.withdrawYes : thresholds.withdrawNo)
}

/**
 * The decision for what the rule read (`read`), the passages' learned `relevance` in passage
 * order: "not-addressed" when no clause is a candidate, or when `model`'s addressed model is
 * below its thresholds (addressedAt: below `add` where the rule's cut found nothing relevant
 * enough, below `withdraw` where it did: a clause sharing the question's words that does not
 * speak to it); otherwise the rule's polarity.
 */
export function learnedDecision(
  model: AnswerModel,
  read: RuleView,
  relevance: readonly number[],
): 'yes' | 'no' | 'not-addressed' {
  if (!read.deciding || read.polarity === null) return 'not-addressed'
  const p = probability(model.addressed, answerFeatures(read, relevance))
  if (!addressedAt(read, p, model.thresholds)) return 'not-addressed'
  return read.polarity
}
