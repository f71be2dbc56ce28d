/**
 * The learned polarity of a yes/no answer (decision 0134): whether a clause the rule
 * (decide-yes-no.ts) chose says Yes or No to the question, learned from the clause's reading
 * only, never from the question's words, so it cannot learn ContractNLI's habit of answering
 * each hypothesis one way (decision 0130's yes model did, and contradicted the text it quoted).
 *
 * Features, all read in the question's frame (a prohibition answers a positive question No and a
 * negated one Yes): the rule's polarity and its cues (negation of the asked act, carve-out,
 * exclusion, restriction, a grant elsewhere, consent), the deciding sentence's reading
 * (read-clause.ts: modality, freedom, exceptions, whether its verb is the asked act, whether it
 * binds every party) and its scope words ("any", "all", "nothing", "without any").
 *
 * It decides only where the quoted reading leaves the polarity open (readingDirection is null)
 * or where it agrees with that reading: a sentence whose verb is the asked act under a plain
 * modality ("shall not reverse engineer", "may disclose to its employees") answers as it reads,
 * a No the rule reads from a prohibition lifted only by consent stays "No, not without
 * consent" (learnedPolarity), and a requirement released in so many words ("need not be
 * identified", "not required to mark") stays No (released, decision 0141).
 * Trained out of fold, split by NDA, on ContractNLI dev and train-extra by `npm run train:answers`
 * (scripts/train-answer-models.ts); weights in polarity-model.json. Pure.
 */
import { readFileSync } from 'node:fs'
import { readClause } from '../analyzer/local/reading/read-clause'
import type { ClauseReading } from '../analyzer/local/reading/clause-reading'
import { probability, type LinearModel } from './passage-relevance'
import type { RuleView } from './answer-model'
import { termsOf, type YesNoQuestion } from './yes-no-question'

/** "X means", "X includes": a definition, whose reach is its breadth. */
const DEFINITION = /\bmeans\b|\bshall (?:mean|include)\b|\bincludes?\b/i

/** Words that widen a definition or duty beyond a form ("in any form", "whether or not marked"). */
const BREADTH =
  /\b(?:in any form|any form|or otherwise|whether or not|regardless of|irrespective of|whether (?:oral|written|orally|in writing)|orally or in writing|in writing or orally)\b/i

/**
 * Acts that end or weaken an obligation: negating one ("termination shall not affect", "shall
 * not terminate but continue") affirms that the obligation continues (decide-yes-no.ts reads it
 * so too).
 */
export const ENDING =
  /^(?:terminat|expir|affect|reliev|releas|ceas|impair|prejudic|discharg|extinguish)/i

/** The names of the features, in the model's weight order. */
export const POLARITY_FEATURES = [
  'bias',
  'rule-yes',
  'negates-asked-act',
  'carve-out',
  'exclusion',
  'restriction',
  'grant-elsewhere',
  'consent',
  'action-matched',
  'modality-says-yes',
  'modality-says-no',
  'matched-modality-says-yes',
  'matched-modality-says-no',
  'no-modality',
  'freedom',
  'exception',
  'every-party',
  'scope-any-all',
  'scope-nothing',
  'scope-without-any',
  'restriction-in-frame',
  'definition',
  'breadth',
  'restriction-to-permission',
] as const

/** The terms of the asked act: the question's terms outside its condition. */
function actTerms(asked: YesNoQuestion): string[] {
  return asked.terms.filter((t) => !asked.condition.includes(t))
}

/** Whether the reading's verb is one of the asked act's terms ("disclose" for "share"). */
export function actionMatched(asked: YesNoQuestion, reading: ClauseReading): boolean {
  const verb = reading.action ? termsOf(reading.action)[0] : undefined
  return verb !== undefined && actTerms(asked).includes(verb)
}

/**
 * The answer the modality alone gives, in the question's frame: a permission or obligation answers
 * a positive question Yes, a prohibition No, and the reverse for a negated question; leave not to
 * act ("need not") answers an obligation No. Null when the modality says nothing about it.
 */
function modalityAnswer(asked: YesNoQuestion, reading: ClauseReading): 'yes' | 'no' | null {
  const m = reading.modality
  if (m === null) return null
  let positive: boolean | null
  if (m === 'must-not') positive = false
  else if (m === 'need-not') positive = asked.permission ? null : false
  else if (m === 'may') positive = asked.permission || asked.negated ? true : null
  else positive = true
  if (positive === null) return null
  return positive !== asked.negated ? 'yes' : 'no'
}

/** The features of the rule's reading `read` (see POLARITY_FEATURES); zeros when no clause. */
export function polarityFeatures(read: RuleView): number[] {
  const { asked, deciding, cues } = read
  if (!deciding || !cues) return POLARITY_FEATURES.map((_, i) => (i === 0 ? 1 : 0))
  const reading = readClause(deciding.sentence, [])
  const matched = actionMatched(asked, reading)
  const says = modalityAnswer(asked, reading)
  const lower = deciding.sentence.toLowerCase()
  const b = (x: boolean) => (x ? 1 : 0)
  return [
    1,
    b(read.polarity === 'yes'),
    b(cues.negated),
    b(cues.carveOut),
    b(cues.exclusion),
    b(cues.restriction),
    b(cues.grantElsewhere),
    b(read.unlessConsent),
    b(matched),
    b(says === 'yes'),
    b(says === 'no'),
    b(matched && says === 'yes'),
    b(matched && says === 'no'),
    b(reading.modality === null),
    b(reading.freedom),
    b(reading.exceptions.some((e) => e.kind !== 'condition')),
    b(reading.everyParty),
    b(/\b(?:any|all)\b/.test(lower)),
    b(/\bnothing\b/.test(lower)),
    b(/\bwithout\s+(?:any|limitation)\b/.test(lower)),
    // A restriction asked ("only technical information?") is met by a restricted clause.
    asked.restricted ? (cues.restriction ? 1 : -1) : 0,
    b(DEFINITION.test(deciding.sentence)),
    b(BREADTH.test(deciding.sentence)),
    // "may disclose only to its employees" asked "may it share with third parties?"
    b(asked.permission && !asked.restricted && cues.restriction),
  ]
}

/**
 * The answer the quoted sentence's reading gives on its face, or null when it leaves the answer
 * open: its verb must be the asked act, under a modality that answers the question (see
 * modalityAnswer), with no exception (a consent or condition leaves it standing), carve-out or
 * exclusion; the question must not turn on scope ("only", "other than"), and a question of
 * continuation ("survive") is settled only by a verb that is not an ending ("shall not survive"
 * yes, "shall not terminate" no), since a modality does not settle those.
 */
export function readingDirection(read: RuleView): 'yes' | 'no' | null {
  const { asked, deciding, cues } = read
  if (!deciding || !cues) return null
  // "Need not be identified", "may, but is not required to, mark", "whether or not marked": a
  // requirement asked is released in so many words (decision 0141).
  if (released(read)) return 'no'
  if (asked.restricted || asked.otherThan) return null
  if (cues.carveOut || cues.exclusion || cues.grantElsewhere) return null
  const reading = readClause(deciding.sentence, [])
  // A consent or condition leaves the modality standing ("shall not, without consent, disclose"
  // still prohibits); an exception ("except to its employees") may open it.
  if (reading.exceptions.some((e) => e.kind !== 'condition' && e.kind !== 'consent')) return null
  if (!actionMatched(asked, reading)) return null
  // "Shall not survive" answers whether it survives No, but "shall not terminate" (an ending
  // negated) answers it Yes: the modality does not settle an ending.
  if (asked.continuing && ENDING.test(reading.action ?? '')) return null
  return modalityAnswer(asked, reading)
}

/** Words releasing a requirement: "need not", "not required to", "whether or not (marked)". */
const RELEASE =
  /\b(?:need not|needs not|not (?:be )?required to|not (?:be )?obliged to|not (?:be )?obligated to|under no obligation to|whether or not|regardless of whether|irrespective of whether)\b/i

/**
 * Whether the rule's No to a requirement asked ("shall all information be identified?", not a
 * permission nor a negated question) comes from a negation that releases it in so many words
 * (RELEASE) rather than from a prohibition; such a No is the sentence's reading, not open.
 */
export function released(read: RuleView): boolean {
  const { asked, deciding, cues } = read
  if (!deciding || !cues || read.polarity !== 'no') return false
  if (asked.permission || asked.negated || asked.restricted || asked.otherThan) return false
  return cues.negated && RELEASE.test(deciding.sentence)
}

/** The committed model (polarity-model.json, read by path beside the module). */
export const POLARITY_MODEL = JSON.parse(
  readFileSync(new URL('./polarity-model.json', import.meta.url), 'utf8'),
) as LinearModel & { confidence: number }

/**
 * The polarity for what the rule read: the model's answer when it is at least `confidence` sure
 * of it and the quoted reading leaves the answer open or agrees; otherwise the rule's. Null when
 * the rule found no clause.
 */
export function learnedPolarity(
  read: RuleView,
  model: LinearModel = POLARITY_MODEL,
  confidence: number = POLARITY_MODEL.confidence,
): 'yes' | 'no' | null {
  if (read.polarity === null) return null
  // "Shall not, without the prior written consent of X, disclose": consent is what lifts the
  // prohibition, so the answer is "No, not without consent", never a permission (decision 0130's
  // yes model read it as Yes).
  if (read.unlessConsent) return read.polarity
  const p = probability(model, polarityFeatures(read))
  const said = p >= confidence ? 'yes' : p <= 1 - confidence ? 'no' : null
  if (said === null || said === read.polarity) return read.polarity
  const direction = readingDirection(read)
  return direction === null || direction === said ? said : read.polarity
}
