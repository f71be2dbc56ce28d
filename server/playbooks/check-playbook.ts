/**
 * Checks a document's analysis against a playbook version's positions (issue 46, decision 0153):
 * per position, `compliant` (the preferred stance matches), `fallback` N (the Nth acceptable
 * fallback, 1 = best), `deviation` (an unacceptable stance matches, or none of the acceptable
 * ones) or `missing` (the analysis found no passage of its clause type), each with the passage
 * it was decided from (an analysis citation: a detected clause, a deal-sheet citation or a key
 * term, never a heading), the rule or sample language that decided it, and a suggested redline
 * (the preferred language, and the next fallback's). Pure and synchronous: 50 positions on a
 * 30-page contract take milliseconds (bench/ `playbook_check_ms`), so the route answers at once.
 *
 * A stance with typed rules matches when all of them hold (rules.ts); a rule that cannot be read
 * (`unknown`) keeps its stance from matching. A stance without rules matches when its sample
 * language and the passage share enough words (LANGUAGE_MATCH, Dice over content words): a
 * coarse test, reported as such, meant for positions no typed rule expresses.
 */
import type { AnalysisResult, QuotedSpan, Span } from '../ai/analyzer/types'
import { DEAL_SHEET_LABELS } from '../ai/analyzer/shared/deal-sheet-labels'
import { isOperative } from '../ai/analyzer/local/deal-sheet/sheet-input'
import { CAP, CAP_LIMIT } from '../ai/analyzer/local/deal-sheet/liability-line'
import { readClause } from '../ai/analyzer/local/reading/read-clause'
import { blockKind, type BlockKind } from '../ai/analyzer/local/structure/block-kind'
import { isDealSheetType, type PlaybookRule, type Position, type Stance } from './positions'
import { describeRule, readRule, type RuleInput, type RuleReading } from './rules'

/** What the check reads of a document: its text and its stored analysis. */
export interface CheckInput {
  content: string
  analysis: Pick<AnalysisResult, 'clauses' | 'keyTerms' | 'summary'>
}

export type Verdict = 'compliant' | 'fallback' | 'deviation' | 'missing'

/** Which stance decided: the preferred one, the Nth fallback or the Nth unacceptable one (1-based). */
export type StanceRef =
  | { kind: 'preferred' }
  | { kind: 'fallback'; rank: number }
  | { kind: 'unacceptable'; rank: number }

/** What decided a verdict. */
export type Decision =
  | {
      by: 'rules'
      stance: StanceRef
      rules: (RuleReading & { rule: PlaybookRule; says: string })[]
    }
  | { by: 'language'; stance: StanceRef | null; similarity: number }
  | { by: 'absent' }

/** The verdict on one position. */
export interface PositionResult {
  positionId: string
  clauseType: string
  title: string
  severity: Position['severity']
  verdict: Verdict
  /** For `fallback`: which one (1 = the best fallback); null otherwise. */
  fallbackRank: number | null
  /** The passage the verdict was read from; null when missing. */
  citation: QuotedSpan | null
  /** The reading of the cited passage (who, modality, action, object, conditions), when it has one. */
  reading: {
    who: string[]
    modality: string | null
    action: string | null
    object: string | null
    conditions: string[]
  } | null
  decision: Decision
  /** The decision in one sentence. */
  explanation: string
  /**
   * The language to propose: the preferred stance's (to replace `replaces`, or to insert when the
   * clause is missing), with the next fallback as a second offer; null when compliant.
   */
  redline: { language: string; replaces: Span | null; fallbackLanguage: string | null } | null
  guidance: string
}

/** The result of a check: the positions' verdicts in the playbook's order, and their counts. */
export interface CheckResult {
  results: PositionResult[]
  counts: Record<Verdict, number>
}

/** Dice similarity of content words at or above which a stance's sample language matches. */
export const LANGUAGE_MATCH = 0.45

/** Block kinds a citation never is: a heading names a clause, it does not state it. */
const NOT_A_PASSAGE: ReadonlySet<BlockKind> = new Set([
  'heading',
  'section-heading',
  'exhibit-title',
  'page-furniture',
  'signature',
])

/** Checks `positions` against `input`. Pure; never throws on any analysis the schema admits. */
export function checkPlaybook(positions: readonly Position[], input: CheckInput): CheckResult {
  const results = positions.map((position) => checkPosition(position, input))
  const counts = { compliant: 0, fallback: 0, deviation: 0, missing: 0 }
  for (const r of results) counts[r.verdict] += 1
  return { results, counts }
}

/** The passages of a position's clause type: operative sentences the analysis cited, best first. */
export function evidenceOf(clauseType: string, input: CheckInput): QuotedSpan[] {
  const { analysis, content } = input
  const quote = (span: Span): QuotedSpan => ({
    start: span.start,
    end: span.end,
    text: content.slice(span.start, span.end),
  })
  const found: QuotedSpan[] = []
  if (isDealSheetType(clauseType)) {
    const line = analysis.summary.dealSheet?.lines.find((l) => l.key === clauseType)
    if (line?.value) found.push(...line.citations)
  } else {
    found.push(
      ...analysis.clauses
        .filter((c) => c.category === clauseType)
        .sort((a, b) => b.confidence - a.confidence)
        .map(quote),
    )
    // A cap the deal sheet's liability line read (its CAP pattern, stating a limit) is a cap
    // clause even where the clause detector did not tag one.
    if (clauseType === 'Cap On Liability') {
      const line = analysis.summary.dealSheet?.lines.find((l) => l.key === 'liability')
      found.push(
        ...(line?.citations ?? []).filter((c) => CAP.test(c.text) && CAP_LIMIT.test(c.text)),
      )
    }
  }
  const keyTerm =
    clauseType === 'Governing Law' || clauseType === 'law'
      ? analysis.keyTerms.governingLaw
      : clauseType === 'Notice Period To Terminate Renewal'
        ? analysis.keyTerms.noticePeriod
        : clauseType === 'Renewal Term'
          ? analysis.keyTerms.renewalTerm
          : null
  const kept = found.filter(
    (p) => p.end > p.start && p.end <= content.length && content.slice(p.start, p.end) === p.text,
  )
  const operative = kept.filter(
    (p, i) => isOperative(p) && kept.findIndex((q) => q.start === p.start && q.end === p.end) === i,
  )
  // A key term's span may be a phrase ("the laws of the State of New York"), cited by the
  // analysis itself: kept unless a passage already holds it or it is a heading ("GOVERNING LAW").
  if (keyTerm && keyTerm.end > keyTerm.start && keyTerm.end <= content.length) {
    const held = operative.some((p) => p.start <= keyTerm.start && keyTerm.end <= p.end)
    if (!held && !NOT_A_PASSAGE.has(blockKind(content.slice(keyTerm.start, keyTerm.end))))
      operative.push(quote(keyTerm))
  }
  return operative
}

function checkPosition(position: Position, input: CheckInput): PositionResult {
  const passages = evidenceOf(position.clauseType, input)
  const base = {
    positionId: position.id,
    clauseType: position.clauseType,
    title: position.title,
    severity: position.severity,
    guidance: position.guidance,
  }
  const fallbackLanguage = position.fallbacks[0]?.language || null
  if (passages.length === 0)
    return {
      ...base,
      verdict: 'missing',
      fallbackRank: null,
      citation: null,
      reading: null,
      decision: { by: 'absent' },
      explanation: `The analysis found no ${typeName(position.clauseType)} in this document.`,
      redline: position.preferred.language
        ? { language: position.preferred.language, replaces: null, fallbackLanguage }
        : null,
    }
  const ruleInput: RuleInput = {
    passages,
    keyTerms: input.analysis.keyTerms,
  }
  const judged = [
    ...position.unacceptable.map((s, i) =>
      judge(s, { kind: 'unacceptable', rank: i + 1 }, passages, ruleInput),
    ),
    judge(position.preferred, { kind: 'preferred' }, passages, ruleInput),
    ...position.fallbacks.map((s, i) =>
      judge(s, { kind: 'fallback', rank: i + 1 }, passages, ruleInput),
    ),
  ]
  const acceptable = judged.filter((j) => j.stance.kind !== 'unacceptable')
  const firstAcceptable = acceptable.find((j) => j.matched)
  const bestAcceptable = Math.max(0, ...acceptable.filter((j) => j.matched).map((j) => j.score))
  const unacceptable = judged.find(
    (j) => j.stance.kind === 'unacceptable' && j.matched && j.score >= bestAcceptable,
  )
  const chosen = unacceptable ?? firstAcceptable
  if (!chosen) {
    // Nothing matched: a deviation, decided by the rules of the preferred stance when it has any,
    // else by how far the language is from every acceptable sample.
    const preferred = acceptable[0]!
    const closest = acceptable.reduce((a, b) => (b.score > a.score ? b : a), preferred)
    const shown = preferred.decision.by === 'rules' ? preferred : closest
    return {
      ...base,
      verdict: 'deviation',
      fallbackRank: null,
      citation: shown.citation,
      reading: readingOf(shown.citation, input),
      decision:
        shown.decision.by === 'language'
          ? { by: 'language', stance: null, similarity: shown.score }
          : shown.decision,
      explanation: explainMiss(shown),
      redline: redlineFor(position, shown.citation, fallbackLanguage),
    }
  }
  const stance = chosen.stance
  const verdict: Verdict =
    stance.kind === 'preferred'
      ? 'compliant'
      : stance.kind === 'fallback'
        ? 'fallback'
        : 'deviation'
  const rank = stance.kind === 'fallback' ? stance.rank : null
  // A fallback is offered the preferred language (and the better fallback, if any); a deviation
  // the preferred language and the best fallback.
  const nextFallback =
    stance.kind === 'fallback'
      ? (position.fallbacks[stance.rank - 2]?.language ?? null)
      : fallbackLanguage
  return {
    ...base,
    verdict,
    fallbackRank: rank,
    citation: chosen.citation,
    reading: readingOf(chosen.citation, input),
    decision: chosen.decision,
    explanation: explainMatch(chosen),
    redline:
      verdict === 'compliant' ? null : redlineFor(position, chosen.citation, nextFallback || null),
  }
}

interface Judged {
  stance: StanceRef
  matched: boolean
  /** 1 for a stance whose rules all hold; the language similarity for one without rules. */
  score: number
  citation: QuotedSpan | null
  decision: Decision
}

function judge(
  stance: Stance,
  ref: StanceRef,
  passages: readonly QuotedSpan[],
  ruleInput: RuleInput,
): Judged {
  if (stance.rules.length > 0) {
    const rules = stance.rules.map((rule) => ({
      ...readRule(rule, ruleInput),
      rule,
      says: describeRule(rule),
    }))
    const matched = rules.every((r) => r.outcome === 'met')
    // Cite the passage of the rule that failed (or of the first one read) so the reader sees why.
    const telling =
      rules.find((r) => r.outcome !== 'met' && r.citation) ?? rules.find((r) => r.citation)
    return {
      stance: ref,
      matched,
      score: matched ? 1 : 0,
      citation: telling?.citation ?? passages[0] ?? null,
      decision: { by: 'rules', stance: ref, rules },
    }
  }
  const sample = contentWords(stance.language)
  let best = { score: 0, passage: passages[0] ?? null }
  for (const passage of passages) {
    const score = dice(sample, contentWords(passage.text))
    if (score > best.score) best = { score, passage }
  }
  const score = Math.round(best.score * 100) / 100
  return {
    stance: ref,
    matched: sample.size > 0 && score >= LANGUAGE_MATCH,
    score,
    citation: best.passage,
    decision: { by: 'language', stance: ref, similarity: score },
  }
}

function redlineFor(
  position: Position,
  citation: QuotedSpan | null,
  fallbackLanguage: string | null,
): PositionResult['redline'] {
  if (!position.preferred.language) return null
  return {
    language: position.preferred.language,
    replaces: citation ? { start: citation.start, end: citation.end } : null,
    fallbackLanguage,
  }
}

function readingOf(citation: QuotedSpan | null, input: CheckInput): PositionResult['reading'] {
  if (!citation) return null
  const reading = readClause(citation.text, input.analysis.keyTerms.parties)
  if (reading.modality === null) return null
  return {
    who: reading.who,
    modality: reading.modality,
    action: reading.action,
    object: reading.object,
    conditions: reading.exceptions.map((e) => e.text),
  }
}

function stanceName(stance: StanceRef | null): string {
  if (!stance) return 'any acceptable stance'
  return stance.kind === 'preferred' ? 'the preferred stance' : `${stance.kind} ${stance.rank}`
}

function explainMatch(j: Judged): string {
  if (j.decision.by === 'rules')
    return `Matches ${stanceName(j.stance)}: ${j.decision.rules.map((r) => `${r.says} (${r.found})`).join('; ')}.`
  return `Matches ${stanceName(j.stance)} by its sample language (similarity ${j.score.toFixed(2)}).`
}

function explainMiss(j: Judged): string {
  if (j.decision.by === 'rules') {
    const failed = j.decision.rules.filter((r) => r.outcome !== 'met')
    return `Departs from the preferred stance: ${failed
      .map(
        (r) => `${r.says}, but ${r.outcome === 'unknown' ? 'could not tell' : 'found'}: ${r.found}`,
      )
      .join('; ')}; no fallback matches either.`
  }
  return `The language differs from every acceptable sample (closest similarity ${j.score.toFixed(2)}, below ${LANGUAGE_MATCH}).`
}

function typeName(clauseType: string): string {
  return isDealSheetType(clauseType)
    ? `"${DEAL_SHEET_LABELS[clauseType]}" line`
    : `${clauseType} clause`
}

/** Words a clause's substance lies in: three letters or more, not the commonest function words. */
const STOP = new Set(
  'the and for any all such this that with its their other shall will may not under from into upon each which been being have has are was were party parties agreement hereunder thereof herein'.split(
    ' ',
  ),
)

function contentWords(text: string): Set<string> {
  const words = new Set<string>()
  for (const m of text.toLowerCase().matchAll(/\p{L}{3,}/gu)) if (!STOP.has(m[0])) words.add(m[0])
  return words
}

function dice(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0
  let shared = 0
  for (const w of a) if (b.has(w)) shared += 1
  return (2 * shared) / (a.size + b.size)
}
