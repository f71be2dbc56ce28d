/**
 * Scores the risk rules against CUAD labels: each risk code maps to the CUAD category whose
 * presence it claims (or, for an absent-clause risk, whose absence it claims), and a contract
 * counts as a true positive when the risk was raised and the label agrees. Used by eval-cuad.ts.
 */
import type { Risk } from '../server/ai/analyzer/types'

/** The CUAD category a risk code claims, and whether it claims its presence or its absence. */
export const RISK_LABELS: Readonly<Record<string, { category: string; present: boolean }>> = {
  'liquidated-damages': { category: 'Liquidated Damages', present: true },
  'ip-assignment': { category: 'Ip Ownership Assignment', present: true },
  'minimum-commitment': { category: 'Minimum Commitment', present: true },
  'most-favoured-nation': { category: 'Most Favored Nation', present: true },
  exclusivity: { category: 'Exclusivity', present: true },
  'non-compete': { category: 'Non-Compete', present: true },
  'change-of-control': { category: 'Change Of Control', present: true },
  'termination-for-convenience': { category: 'Termination For Convenience', present: true },
  'liability-carve-out': { category: 'Uncapped Liability', present: true },
  'liability-missing': { category: 'Cap On Liability', present: false },
  'governing-law-missing': { category: 'Governing Law', present: false },
}

/**
 * Codes scored under another code's label: "…-unilateral" is a termination for convenience, and
 * CUAD's Liquidated Damages covers "a fee upon the termination of a contract (termination fee)"
 * as well as damages for breach, so an exit fee counts as liquidated damages.
 */
const SCORED_AS: Readonly<Record<string, string>> = {
  'termination-for-convenience-unilateral': 'termination-for-convenience',
  'severance-exit-fee': 'liquidated-damages',
}

/**
 * The CUAD category whose presence a risk code claims (after SCORED_AS), or null when the code
 * claims none or claims an absence: what risk grounding checks the risk's citation against.
 */
export function claimedCategory(code: string): string | null {
  const claim = RISK_LABELS[SCORED_AS[code] ?? code]
  return claim?.present ? claim.category : null
}

/** Running counts of one risk type: tp, fp, fn and the contracts whose label claims it. */
export interface RiskTypeCounts {
  code: string
  category: string
  tp: number
  fp: number
  fn: number
  labelled: number
}

/** Counts per risk type plus the bearer tally; fill with scoreRisks, read with riskTypeRows. */
export interface RiskScores {
  types: Map<string, RiskTypeCounts>
  risks: number
  withBearer: number
}

/** Empty scores, one row per mapped risk code. */
export function riskScores(): RiskScores {
  const types = new Map<string, RiskTypeCounts>()
  for (const [code, { category }] of Object.entries(RISK_LABELS)) {
    types.set(code, { code, category, tp: 0, fp: 0, fn: 0, labelled: 0 })
  }
  return { types, risks: 0, withBearer: 0 }
}

/**
 * Adds one contract: `labelled` says whether each CUAD category has a labelled clause there,
 * `risks` are the engine's risks for it. A risk names a bearer when `binds` is not empty.
 */
export function scoreRisks(
  scores: RiskScores,
  labelled: (category: string) => boolean,
  risks: readonly Risk[],
): void {
  scores.risks += risks.length
  scores.withBearer += risks.filter((risk) => (risk.binds?.length ?? 0) > 0).length
  const raised = new Set(risks.map((risk) => SCORED_AS[risk.code] ?? risk.code))
  for (const row of scores.types.values()) {
    const claim = RISK_LABELS[row.code]
    if (!claim) continue
    const truth = labelled(row.category) === claim.present
    if (truth) row.labelled += 1
    const guess = raised.has(row.code)
    if (truth && guess) row.tp += 1
    else if (guess) row.fp += 1
    else if (truth) row.fn += 1
  }
}

/** Precision and recall per risk type (0 when undefined), in RISK_LABELS order. */
export function riskTypeRows(
  scores: RiskScores,
): (RiskTypeCounts & { precision: number; recall: number })[] {
  return [...scores.types.values()].map((row) => ({
    ...row,
    precision: row.tp + row.fp === 0 ? 0 : row.tp / (row.tp + row.fp),
    recall: row.tp + row.fn === 0 ? 0 : row.tp / (row.tp + row.fn),
  }))
}

/** The share of risks that name the party bearing them (1 when there are no risks). */
export function riskBearerShare(scores: RiskScores): number {
  return scores.risks === 0 ? 1 : scores.withBearer / scores.risks
}
