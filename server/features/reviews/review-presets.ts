/**
 * The preset columns of a review (issue 44, decision 0137): one per CUAD clause category
 * (answered from the analysis' clause findings), one per key term (parties, dates, term,
 * renewal, notice, governing law: from the key terms and the deal sheet) and one per deal-sheet
 * line. A preset's key names its source: `clause:<CUAD category>`, `term:<key term>` or
 * `deal:<deal-sheet key>`.
 */
import { CLAUSE_CATEGORIES } from '../../ai/analyzer/shared/cuad-taxonomy'
import { DEAL_SHEET_KEYS, type DealSheetKey } from '../../ai/analyzer/types'
import type { AnswerType } from './review-answer'

/** The key terms a preset reads: KeyTerms' fields, and the deal sheet's `term` line. */
export const KEY_TERM_PRESETS = [
  'parties',
  'agreementDate',
  'effectiveDate',
  'expirationDate',
  'term',
  'renewalTerm',
  'noticePeriod',
  'governingLaw',
] as const

export type KeyTermPreset = (typeof KEY_TERM_PRESETS)[number]

/** Where a preset's answer comes from in an analysis. */
export type PresetSource =
  | { kind: 'clause'; category: string }
  | { kind: 'term'; term: KeyTermPreset }
  | { kind: 'deal'; line: DealSheetKey }

/** A preset column: its key, the label it is shown with, its answer type and its source. */
export interface ReviewPreset {
  key: string
  label: string
  answerType: AnswerType
  source: PresetSource
}

const TERM_LABELS: Record<KeyTermPreset, { label: string; answerType: AnswerType }> = {
  parties: { label: 'Parties', answerType: 'party' },
  agreementDate: { label: 'Agreement date', answerType: 'date' },
  effectiveDate: { label: 'Effective date', answerType: 'date' },
  expirationDate: { label: 'Expiration date', answerType: 'date' },
  term: { label: 'Term', answerType: 'text' },
  renewalTerm: { label: 'Renewal term', answerType: 'duration' },
  noticePeriod: { label: 'Notice period to stop renewal', answerType: 'duration' },
  governingLaw: { label: 'Governing law', answerType: 'text' },
}

const DEAL_LABELS: Record<DealSheetKey, string> = {
  deal: 'Deal',
  parties: 'Parties (deal sheet)',
  agreementDate: 'Agreement date (deal sheet)',
  effectiveDate: 'Effective date (deal sheet)',
  term: 'Term (deal sheet)',
  money: 'Money',
  termination: 'Termination',
  liability: 'Liability',
  restrictions: 'Restrictions',
  assignment: 'Assignment',
  ip: 'Intellectual property',
  confidentiality: 'Confidentiality',
  law: 'Law and disputes',
}

/** Every preset, in the order the column builder lists them: key terms, clauses, deal sheet. */
export const REVIEW_PRESETS: readonly ReviewPreset[] = [
  ...KEY_TERM_PRESETS.map((term) => ({
    key: `term:${term}`,
    ...TERM_LABELS[term],
    source: { kind: 'term', term } as const,
  })),
  ...CLAUSE_CATEGORIES.map((category) => ({
    key: `clause:${category}`,
    label: category,
    answerType: 'text' as const,
    source: { kind: 'clause', category } as const,
  })),
  ...DEAL_SHEET_KEYS.map((line) => ({
    key: `deal:${line}`,
    label: DEAL_LABELS[line],
    answerType: 'text' as const,
    source: { kind: 'deal', line } as const,
  })),
]

const BY_KEY = new Map(REVIEW_PRESETS.map((preset) => [preset.key, preset]))

/** The preset of `key`, or undefined for a key that names none. */
export function presetOf(key: string): ReviewPreset | undefined {
  return BY_KEY.get(key)
}
