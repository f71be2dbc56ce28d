/**
 * Deciding a yes/no question from retrieved passages by their own wording (decisions 0067, 0075),
 * so the answer never claims a passage says what it does not:
 * - relevance: the share of the question's term weight found in a clause of a passage (or in its
 *   whole sentence, slightly discounted), each term weighted by its rarity among the given
 *   passages (a term every passage holds, such as a party name, decides nothing); a candidate
 *   must hold two distinct terms of the question and state its condition ("upon termination"),
 *   if any; below MIN_RELEVANCE the answer is 'not addressed';
 * - polarity: a clause that negates the asked act ("shall not", "may not", "no … may", "nothing …",
 *   "without … consent", "prohibited", "whether or not marked" for a requirement), read with its
 *   lead-in when it is an item after a colon, answers No to a positive question and Yes to a
 *   negated one; a clause stating the act answers the other way; a carve-out or an exclusion
 *   ("shall not apply to information acquired from a third party") permits what it excepts; a
 *   negated ending ("termination shall not affect") affirms what is asked to continue;
 * - a restriction asked ("only technical information") is contradicted by a deciding clause that
 *   states no restriction.
 * Other relevant sentences carrying an exception (except, unless, provided that, subject to,
 * notwithstanding) are the qualifications.
 */
import { readClause } from '../analyzer/local/reading/read-clause'
import type { ChatPassage } from './types'
import {
  readYesNoQuestion,
  ROLE_PHRASES,
  rolesOf,
  termsOf,
  type YesNoQuestion,
} from './yes-no-question'
import {
  ANSWER_MODEL,
  learnedDecision,
  relevanceOfPassages,
  type AnswerModel,
  type PolarityCues,
  type SpeakingTo,
} from './answer-model'
import { ENDING, actionMatched, learnedPolarity } from './polarity-model'

export type YesNoDecision = 'yes' | 'no' | 'not-addressed'

export interface YesNoAnswer {
  decision: YesNoDecision
  /** The passage whose clause decided; null when not addressed. */
  passage: ChatPassage | null
  /** Other passages qualifying the decision (exceptions, conditions), at most MAX_QUALIFICATIONS. */
  qualifications: ChatPassage[]
  /** The relevance of the deciding clause, 0..1. */
  relevance: number
  /**
   * A No because the deciding sentence prohibits the act without a party's consent ("shall not,
   * without the prior written consent of X, disclose"): the answer is "No, not without consent".
   */
  unlessConsent: boolean
}

/**
 * The share of the question's weighted terms a clause must hold to decide. Chosen on the
 * ContractNLI development NDAs as the point where NotMentioned and the decided classes balance
 * (scripts/eval-nli.ts prints the effect); it is a property of the rule, not of any file.
 */
export const MIN_RELEVANCE = 0.35

const MAX_QUALIFICATIONS = 2

/**
 * The weight of a passage's learned relevance (0..1) beside a clause's term relevance (0..1) when
 * the rule picks its deciding clause (readByRule); chosen out of fold (decision 0130).
 */
export const PRIOR_WEIGHT = 0.5

/** Distinct question terms a clause must hold to decide (see decideYesNo). */
const MIN_TERMS_HELD = 2

/** The relevance of a whole sentence relative to its clauses' (see clausesOf). */
const WHOLE_SENTENCE = 0.9

/** Clause boundaries inside a sentence: an exception or condition starts its own clause. */
const CLAUSE_BREAK =
  /[;:]\s+|,?\s+(?=\b(?:except|unless|provided(?:,)? (?:however|that)|notwithstanding|however|but)\b)/i

/** Negation cues, each followed by the words it governs. */
const NEGATION =
  /\b(?:(?:shall|may|will|must|can|could|should|does|do|is|are|be|need)\s+not|cannot|can't|won't|shan't|never|neither|nor|nothing|in no event|prohibited from|refrain from|not\s+(?:to|be|permitted|allowed|entitled|required|obliged|obligated)|no\s+(?:[a-z-]+\s+){0,8}(?:shall|may|will|is|are))\b/gi

/** "Without (the prior written) consent": a prohibition unless consent is given. */
const WITHOUT_CONSENT =
  /\bwithout\s+(?:[a-z-]+\s+){0,6}(?:consent|approval|permission|authori[sz]ation)\b/i

/** "Whether or not marked": the asked requirement does not apply. */
const REGARDLESS = /\b(?:whether or not|regardless of whether|irrespective of whether)\b/i

/** Words a negation cue governs: the asked act must appear this close after it. */
const NEGATION_REACH = 12

const EXCEPTION =
  /\b(?:except|unless|provided(?:,)? (?:however|that)|subject to|notwithstanding)\b/i

const RESTRICTION = /\b(?:only|solely|exclusively|limited to)\b/i

/** A clause granting a permission or right ("may", "is entitled to", "is free to"). */
const PERMISSION =
  /\b(?:may|can|is entitled to|are entitled to|is permitted to|are permitted to|is free to|are free to|right to)\b/i

/** An exception carved out of a prohibition: what it excepts is permitted. */
const CARVE_OUT =
  /\b(?:except|excepting|other than|unless|save (?:that|as|for)|only to|but only|to the extent)\b/gi

/** Where a carve-out's words end: the next clause or sentence boundary. */
const CARVE_OUT_END = /[;.]\s|\bprovided\b|\bsubject to\b/i

/**
 * An exclusion from the agreement's reach ("shall not include", "does not apply to", "no
 * obligation … applies", "nothing … shall prevent"): what it excludes is left free, so to a
 * permission it reads like a carve-out, not a prohibition.
 */
const EXCLUSION =
  /\b(?:not\s+(?:include|includes|constitute|apply|applies|be deemed|be considered|be treated as|restrict|prevent|prohibit|limit|be liable)|no\s+(?:[a-z-]+\s+){0,2}obligations?|nothing\b(?:\s+[a-z-]+){0,10}?\s+(?:prevent|restrict|prohibit|limit|preclude))\b/i

/** One clause of a passage as the rule reads it (exported for the answer model's features). */
export interface Clause {
  passage: ChatPassage
  text: string
  /** The clause as read for polarity: with its lead-in when it is an item after a colon. */
  reading: string
  /** The whole sentence the clause belongs to. */
  sentence: string
  relevance: number
  /** The distinct question terms the clause holds. */
  held: string[]
}

/** Inverse document frequency of each term over the passages (a term in all of them weighs little). */
function weightsOf(question: YesNoQuestion, passages: readonly ChatPassage[]): Map<string, number> {
  const sets = passages.map((p) => new Set(termsOf(p.content)))
  const n = sets.length
  return new Map(
    question.terms.map((t) => {
      const df = sets.filter((s) => s.has(t)).length
      return [t, Math.log(1 + (n + 1) / (df + 0.5))]
    }),
  )
}

/** The share of the question's term weight in `text` (0..1) and the question terms it holds. */
function relevanceOf(
  text: string,
  weights: Map<string, number>,
): { relevance: number; held: string[] } {
  const terms = new Set(termsOf(text))
  let total = 0
  let found = 0
  const held: string[] = []
  for (const [term, weight] of weights) {
    total += weight
    if (terms.has(term)) {
      found += weight
      held.push(term)
    }
  }
  return { relevance: total === 0 ? 0 : found / total, held }
}

/**
 * Whether a negation in `clause` governs one of the question's terms (the asked act). When the
 * question asks whether something continues (survives, remains), a negated ending ("shall not
 * affect", "shall not terminate") affirms it rather than negating it.
 */
function negates(clause: string, weights: Map<string, number>, continuing: boolean): boolean {
  for (const match of clause.matchAll(NEGATION)) {
    const after = clause
      .slice(match.index + match[0].length)
      .split(/\s+/)
      .slice(0, NEGATION_REACH)
    if (continuing && ENDING.test(after.find((w) => /[a-z]/i.test(w)) ?? '')) continue
    if (termsOf(after.join(' ')).some((t) => weights.has(t))) return true
  }
  if (WITHOUT_CONSENT.test(clause)) return true
  const regardless = REGARDLESS.exec(clause)
  if (regardless) {
    const after = clause
      .slice(regardless.index + regardless[0].length)
      .split(/\s+/)
      .slice(0, 6)
    if (termsOf(after.join(' ')).some((t) => weights.has(t))) return true
  }
  return false
}

function clausesOf(passage: ChatPassage, weights: Map<string, number>): Clause[] {
  return passage.content.split(/(?<=[.!?])\s+/).flatMap((sentence) => {
    const texts = sentence.split(CLAUSE_BREAK).filter((text) => text.trim() !== '')
    // "does not include: (a) … (b) …": an item after a colon is governed by its lead-in.
    const parts = texts.map((text, i) => {
      const before = sentence.slice(0, sentence.indexOf(text)).trimEnd()
      const reading = i > 0 && before.endsWith(':') ? `${texts[i - 1]} ${text}` : text
      return { passage, text, reading, sentence, ...relevanceOf(text, weights) }
    })
    if (parts.length < 2) return parts
    // A sentence split into clauses still answers as a whole ("may disclose … , but shall give
    // notice"): slightly below its best clause, so a clause holding all the terms is preferred.
    const { relevance, held } = relevanceOf(sentence, weights)
    const whole = {
      passage,
      text: sentence,
      reading: sentence,
      sentence,
      relevance: relevance * WHOLE_SENTENCE,
      held,
    }
    return [...parts, whole]
  })
}

/**
 * What the rule reads in `passages` for a question, before any threshold (decideYesNo decides
 * from it): the best candidate clause and its relevance, the polarity it gives (after a grant
 * elsewhere, see below), the clause that decides it and whether a party's consent lifts a No.
 * `polarity` and `deciding` are null when no clause is a candidate at all.
 */
export interface RuleReading {
  asked: YesNoQuestion
  /** The relevance of the best candidate clause (0 when none). */
  relevance: number
  polarity: 'yes' | 'no' | null
  deciding: Clause | null
  unlessConsent: boolean
  /** The rule's own decision: the polarity when relevance reaches MIN_RELEVANCE. */
  ruleDecision: YesNoDecision
  /** The wording cues the polarity was read from (null when no clause is a candidate). */
  cues: PolarityCues | null
  /** What the passages and the deciding clause hold of the question (see SpeakingTo). */
  speaks: SpeakingTo
  /**
   * No clause is a candidate; `deciding` is the one holding a term of the asked act, read for
   * the addressed model only (the rule's decision is "not addressed").
   */
  loose: boolean
}

/**
 * The rule's reading of `passages` for `asked` (see RuleReading). `prior`, when given, is each
 * passage's learned relevance (in passage order): the best candidate is then the clause with the
 * highest relevance + prior × `priorWeight`, so of two clauses sharing the question's words the
 * one in the passage more like evidence decides.
 */
export function readByRule(
  asked: YesNoQuestion,
  passages: readonly ChatPassage[],
  prior?: readonly number[],
  priorWeight = PRIOR_WEIGHT,
  loose = true,
): RuleReading {
  const at = new Map(passages.map((p, i) => [p, i]))
  const rank = (c: Clause) =>
    c.relevance + (prior ? (prior[at.get(c.passage) ?? 0] ?? 0) * priorWeight : 0)
  const weights = weightsOf(asked, passages)
  const clauses = passages.flatMap((p) => clausesOf(p, weights))
  // A candidate must state the question's condition, if any, hold two of its terms (one shared
  // word is a mention, not an answer: "copies" in a return clause does not say whether copies may
  // be made) and one of the asked act's (a clause stating only the condition, "shall return or
  // destroy", does not say what may happen after it).
  const asksAct = asked.terms.some((t) => !asked.condition.includes(t))
  const candidate = (c: Clause) =>
    c.held.length >= Math.min(MIN_TERMS_HELD, weights.size) &&
    (!asksAct || c.held.some((t) => !asked.condition.includes(t))) &&
    (asked.condition.length === 0 || termsOf(c.sentence).some((t) => asked.condition.includes(t)))
  const bestOf = (cs: Clause[]) =>
    cs.reduce<Clause | null>((top, c) => (top === null || rank(c) > rank(top) ? c : top), null)
  const strict = bestOf(clauses.filter(candidate))
  // Where no clause is a candidate, the clause holding the most of the asked act (one of its
  // terms, any condition unstated: "may retain one copy" to "may it create a copy?") is read
  // for the addressed model to judge (decision 0141); the rule alone leaves it not addressed.
  const best =
    strict ??
    (loose
      ? bestOf(clauses.filter((c) => c.held.some((t) => !asksAct || !asked.condition.includes(t))))
      : null)
  if (!best)
    return {
      asked,
      relevance: 0,
      polarity: null,
      deciding: null,
      unlessConsent: false,
      ruleDecision: 'not-addressed',
      cues: null,
      loose: false,
      speaks: speakingTo(asked, passages, weights, null),
    }
  let deciding = best
  let polarity = polarityOf(best, asked, weights)
  if (polarity === 'no' && asked.permission && !asked.negated && !asked.restricted) {
    // A prohibition answers No to "may …?" only when no other relevant clause grants what is
    // asked ("shall not disclose … to anyone"; elsewhere "may disclose to its employees who need
    // to know"): the grant is the more specific term.
    const grant = clauses
      .filter(
        (c) => c !== best && candidate(c) && c.relevance >= Math.min(MIN_RELEVANCE, best.relevance),
      )
      .filter((c) => grants(c, asked, weights))
      .reduce<Clause | null>(
        (top, c) => (top === null || c.relevance > top.relevance ? c : top),
        null,
      )
    if (grant) {
      deciding = grant
      polarity = 'yes'
    }
  }
  const unlessConsent = polarity === 'no' && !asked.negated && liftedByConsent(deciding)
  return {
    asked,
    relevance: best.relevance,
    polarity,
    deciding,
    unlessConsent,
    ruleDecision: strict && best.relevance >= MIN_RELEVANCE ? polarity : 'not-addressed',
    loose: strict === null,
    cues: {
      negated: negates(deciding.reading, weights, asked.continuing),
      carveOut: excepts(deciding.sentence, deciding.held),
      exclusion: EXCLUSION.test(deciding.sentence),
      restriction: RESTRICTION.test(deciding.text),
      grantElsewhere: deciding !== best,
    },
    speaks: speakingTo(asked, passages, weights, deciding),
  }
}

/** What `passages` and the `deciding` clause hold of `asked` (see SpeakingTo, answer-model.ts). */
function speakingTo(
  asked: YesNoQuestion,
  passages: readonly ChatPassage[],
  weights: Map<string, number>,
  deciding: Clause | null,
): SpeakingTo {
  const sets = passages.map((p) => new Set(termsOf(p.content)))
  const df = (t: string) => sets.filter((s) => s.has(t)).length
  let total = 0
  let unseen = 0
  for (const [term, weight] of weights) {
    total += weight
    if (df(term) === 0) unseen += weight
  }
  const seen = asked.terms.filter((t) => df(t) > 0)
  const fewest = Math.min(...seen.map(df))
  const keys = seen.filter((t) => df(t) === fewest)
  const sentence = deciding ? new Set(termsOf(deciding.sentence)) : new Set<string>()
  const act = asked.terms.filter((t) => !asked.condition.includes(t))
  const spread = passages.filter((p) =>
    clausesOf(p, weights).some((c) => c.held.length >= Math.min(MIN_TERMS_HELD, weights.size)),
  ).length
  return {
    unseen: total === 0 ? 0 : unseen / total,
    keyHeld: deciding !== null && keys.some((t) => sentence.has(t)),
    sentenceShare: deciding ? relevanceOf(deciding.sentence, weights).relevance : 0,
    actShare: act.length === 0 ? 0 : act.filter((t) => sentence.has(t)).length / act.length,
    spread: passages.length === 0 ? 0 : spread / passages.length,
    actIsVerb: deciding !== null && actionMatched(asked, readClause(deciding.sentence, [])),
    ...rolesHeld(asked, deciding?.sentence ?? null),
  }
}

/** How far (in words) a question term may stand from a role phrase to concern it (SpeakingTo.roleNear). */
export const ROLE_NEAR_WORDS = 8

/** SpeakingTo's roleShare and roleNear of `sentence` (none: 0 and false). */
function rolesHeld(
  asked: YesNoQuestion,
  sentence: string | null,
): Pick<SpeakingTo, 'roleShare' | 'roleNear'> {
  if (sentence === null) return { roleShare: 0, roleNear: false }
  // A question naming no one and nothing: every sentence concerns what it asks as far as roles go.
  if (asked.roles.length === 0) return { roleShare: 1, roleNear: true }
  const own = new Set(rolesOf(sentence))
  const roleShare = asked.roles.filter((r) => own.has(r)).length / asked.roles.length
  // Each asked role phrase as one marker word, then the words' stems in order.
  const asks = new Set(asked.roles)
  const marked = sentence
    .toLowerCase()
    .replace(ROLE_PHRASES, (phrase) => (asks.has(rolesOf(phrase)[0] ?? '') ? ' zzrole ' : phrase))
  const words = marked.match(/[a-z][a-z'-]*/g) ?? []
  const terms = new Set(asked.terms)
  const rolesAt: number[] = []
  const termsAt: number[] = []
  words.forEach((word, i) => {
    if (word === 'zzrole') rolesAt.push(i)
    else if (terms.has(termsOf(word)[0] ?? '')) termsAt.push(i)
  })
  const roleNear = termsAt.some((t) => rolesAt.some((r) => Math.abs(t - r) <= ROLE_NEAR_WORDS))
  return { roleShare, roleNear }
}

/**
 * The decision for `question` from `passages` (numbered, best retrieved first). Not a yes/no
 * question → null (the caller answers another way). The rule reads the passages (readByRule),
 * its deciding clause chosen with each passage's learned relevance; `model` (the committed models
 * unless a test passes others, or null for the rule alone) then decides whether a question the
 * rule's cut leaves unanswered is addressed after all, and whether a Yes it decided only shares
 * the question's words (answer-model.ts, decisions 0130, 0141), and
 * whether the answer is Yes or No where the quoted clause's reading leaves it open
 * (polarity-model.ts, decision 0134; a prohibition lifted only by consent stays "No, not without
 * consent").
 */
export function decideYesNo(
  question: string,
  passages: readonly ChatPassage[],
  model: AnswerModel | null = ANSWER_MODEL,
): YesNoAnswer | null {
  const asked = readYesNoQuestion(question)
  if (!asked) return null
  // Each passage's learned relevance guides which clause decides, then whether it is addressed.
  const relevance = model ? relevanceOfPassages(question, passages, model.relevance) : undefined
  const read = readByRule(asked, passages, relevance)
  const addressed = relevance && model ? learnedDecision(model, read, relevance) : read.ruleDecision
  // The polarity model may overrule the rule's Yes or No where the quoted reading leaves it open
  // (polarity-model.ts, decision 0134).
  const decision =
    addressed === 'not-addressed' || !model
      ? addressed
      : (learnedPolarity(read, model.polarity, model.polarity?.confidence) ?? addressed)
  const deciding = decision === 'not-addressed' ? null : read.deciding
  if (!deciding)
    return {
      decision: 'not-addressed',
      passage: null,
      qualifications: [],
      relevance: read.relevance,
      unlessConsent: false,
    }
  const weights = weightsOf(asked, passages)
  const qualifications = [
    ...new Set(
      passages
        .flatMap((p) => clausesOf(p, weights))
        .filter(
          (c) =>
            c.passage !== deciding.passage &&
            c.relevance >= MIN_RELEVANCE / 2 &&
            EXCEPTION.test(c.text),
        )
        .map((c) => c.passage),
    ),
  ].slice(0, MAX_QUALIFICATIONS)
  return {
    decision,
    passage: deciding.passage,
    qualifications,
    relevance: deciding.relevance,
    unlessConsent:
      decision === 'no' && (read.unlessConsent || (!asked.negated && liftedByConsent(deciding))),
  }
}

/** Whether `clause`'s sentence prohibits unless a party consents ("without … consent"). */
function liftedByConsent(clause: Clause): boolean {
  return (
    WITHOUT_CONSENT.test(clause.sentence) ||
    readClause(clause.sentence, []).exceptions.some((e) => e.kind === 'consent')
  )
}

/** The answer `clause` gives to `asked` by its polarity (see decideYesNo). */
function polarityOf(
  clause: Clause,
  asked: YesNoQuestion,
  weights: Map<string, number>,
): 'yes' | 'no' {
  const sentence = clause.sentence
  const negated = negates(clause.reading, weights, asked.continuing)
  if (asked.restricted && !RESTRICTION.test(clause.text)) return asked.negated ? 'yes' : 'no'
  // "Shall not use it other than for the Purpose?" is what "may use it solely for the Purpose"
  // says: a permission limited by "only / solely" prohibits the rest.
  if (asked.negated && asked.otherThan && RESTRICTION.test(clause.text)) return 'yes'
  // A negated question ("shall not copy?") is contradicted only by a permission to do it.
  if (asked.negated) return negated || !PERMISSION.test(clause.text) ? 'yes' : 'no'
  // "Shall not disclose except to its employees" permits what it excepts, and only that.
  if (negated && asked.permission && (excepts(sentence, clause.held) || EXCLUSION.test(sentence)))
    return 'yes'
  return negated ? 'no' : 'yes'
}

/** Whether `clause` grants the asked act: a permission, or a carve-out holding what is asked. */
function grants(clause: Clause, asked: YesNoQuestion, weights: Map<string, number>): boolean {
  if (polarityOf(clause, asked, weights) !== 'yes') return false
  return (
    PERMISSION.test(clause.text) ||
    /\bonly\s+to\b/i.test(clause.text) ||
    (negates(clause.reading, weights, false) && excepts(clause.sentence, clause.held))
  )
}

/**
 * Whether a carve-out of `sentence` ("except to its employees", "other than", "unless required by
 * law") holds a question term the rest of the sentence does not: what is asked is what it
 * excepts. A carve-out of something else ("shall not disclose to third parties, except as
 * required by law" asked about third parties) leaves the prohibition standing.
 */
function excepts(sentence: string, held: readonly string[]): boolean {
  // The prohibited act itself ("disclose") recurs in most carve-outs ("unless disclosure is
  // required by law"); what the carve-out lets through is the rest (to whom, what, when).
  const action = readClause(sentence, []).action
  const act = action ? termsOf(action)[0] : undefined
  for (const match of sentence.matchAll(CARVE_OUT)) {
    const rest = sentence.slice(match.index)
    const end = rest.slice(match[0].length).search(CARVE_OUT_END)
    const carveOut = end < 0 ? rest : rest.slice(0, match[0].length + end)
    if (termsOf(carveOut).some((t) => t !== act && held.includes(t))) return true
  }
  return false
}
