/**
 * One line on what a substantive change does (decision 0146), where it is cheap to say: a number
 * or period changed ("30 days → 60 days"), the force of a provision changed (the reading layer's
 * modality, readClause: "may → shall"), a negation added or removed, or a clause of a CUAD
 * category added or removed (the local clause model run on the clause alone). Otherwise null:
 * the note never guesses.
 */
import { detectClauses } from '../ai/analyzer/local/clauses/detect-clauses'
import { readClause } from '../ai/analyzer/local/reading/read-clause'
import type { Modality } from '../ai/analyzer/local/reading/clause-reading'
import { segmentSentences } from '../ai/analyzer/local/sentences'
import type { ClauseUnit, TextSpan } from './comparison'

const NUMBER =
  /\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|forty-five|fifty|sixty|ninety|hundred|thousand|million)\b/i

/** A unit that follows a number and belongs in the note: "60 days", "$5 million", "12 months". */
const UNIT_AFTER =
  /^[\s)]*(?:\(\s*\d[\d,.]*\s*\)\s*)?(?:business\s+|calendar\s+|working\s+)?(?:days?|weeks?|months?|years?|hours?|percent|per\s*cent|%|dollars|million|billion|times)\b/i

const MODALITY_WORDS: Record<Modality, string> = {
  must: 'must',
  may: 'may',
  'must-not': 'must not',
  'need-not': 'need not',
}

/** A hunk that is one modal phrase: "may", "shall not". */
const MODAL_WORD = /^(?:shall|will|must|may|can|cannot)(?:\s+not)?$/i

/** Clause categories the model must be at least this sure of to name. */
const MIN_CATEGORY_CONFIDENCE = 0.5

/**
 * The note of a words change between `base` at `baseCite` and `revised` at `revisedCite`, inside
 * the clauses `baseClause` and `revisedClause`. Pure; never throws.
 */
export function wordsNote(
  base: string,
  baseCite: TextSpan,
  baseClause: ClauseUnit,
  revised: string,
  revisedCite: TextSpan,
  revisedClause: ClauseUnit,
): string | null {
  const before = base.slice(baseCite.start, baseCite.end)
  const after = revised.slice(revisedCite.start, revisedCite.end)
  if (NUMBER.test(before) || NUMBER.test(after)) {
    const unitBefore = UNIT_AFTER.exec(base.slice(baseCite.end, baseCite.end + 40))?.[0] ?? ''
    const unitAfter =
      UNIT_AFTER.exec(revised.slice(revisedCite.end, revisedCite.end + 40))?.[0] ?? ''
    if (before !== '' && after !== '')
      return `a number changed: ${clip(before + unitBefore)} → ${clip(after + unitAfter)}`
  }
  const baseSentence = sentenceAt(base, baseClause, baseCite.start)
  const revisedSentence = sentenceAt(revised, revisedClause, revisedCite.start)
  if (baseSentence !== null && revisedSentence !== null) {
    const was = readClause(baseSentence, []).modality
    const now = readClause(revisedSentence, []).modality
    if (was !== null && now !== null && was !== now) {
      // The drafter's own words when the change is the modal itself ("may → shall").
      const own = MODAL_WORD.test(before.trim()) && MODAL_WORD.test(after.trim())
      return own
        ? `modality changed: ${before.trim()} → ${after.trim()}`
        : `modality changed: ${MODALITY_WORDS[was]} → ${MODALITY_WORDS[now]}`
    }
  }
  if (/\bnot\b|\bno\b|\bnever\b/i.test(before) !== /\bnot\b|\bno\b|\bnever\b/i.test(after))
    return /\bnot\b|\bno\b|\bnever\b/i.test(after) ? 'a negation added' : 'a negation removed'
  return null
}

/**
 * The note of a clause added (`added` true) or removed: its CUAD category when the local clause
 * model names one, else its caption. Pure; never throws.
 */
export function clauseNote(text: string, clause: ClauseUnit, added: boolean): string | null {
  const what = added ? 'added' : 'removed'
  const own = text.slice(clause.span.start, clause.span.end)
  if (clause.kind === 'page-furniture' || !/\p{L}/u.test(own)) return null
  const categories = detectClauses(own, segmentSentences(own))
    .filter((c) => c.confidence >= MIN_CATEGORY_CONFIDENCE)
    .sort((a, b) => b.confidence - a.confidence)
  const category = categories[0]?.category
  if (category) return `a clause of category ${category} ${what}`
  if (clause.heading) return `a clause "${clip(clause.heading)}" ${what}`
  return null
}

function sentenceAt(text: string, clause: ClauseUnit, at: number): string | null {
  const sentence = clause.sentences.find((s) => at >= s.start && at <= s.end)
  return sentence ? text.slice(sentence.start, sentence.end) : null
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > 60 ? `${flat.slice(0, 57)}…` : flat
}
