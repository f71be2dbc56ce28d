/**
 * Scores a deal sheet against a CUAD contract's labels (CUAD v1, The Atticus Project, Hendrycks
 * et al. 2021, CC BY 4.0): for each labelled field, is its line filled (coverage) and consistent
 * with the label (accuracy). Dates, parties and governing law compare values with the normalised
 * answers; renewal periods and expiration dates compare values or citations; clause fields are
 * consistent when a citation overlaps the clause the lawyers quoted. Used by eval-deal-sheet.ts.
 */
import type { DealSheet, DealSheetKey, DealSheetLine } from '../server/ai/analyzer/types'
import { buildWhitespaceIndex, locateClauses, type CuadContract } from './cuad-dataset'
import { normaliseJurisdiction } from './jurisdiction'
import {
  normalisePartyName,
  parseLabelDate,
  parsePartiesLabel,
  parsePeriod,
  partyNamesMatch,
  periodsMatch,
} from './key-term-scoring'

/** The CUAD fields a deal sheet answers, each with the line that answers it. */
export const DEAL_SHEET_FIELDS: readonly [field: string, line: DealSheetKey][] = [
  ['Document Name', 'deal'],
  ['Parties', 'parties'],
  ['Agreement Date', 'agreementDate'],
  ['Effective Date', 'effectiveDate'],
  ['Expiration Date', 'term'],
  ['Renewal Term', 'term'],
  ['Notice Period To Terminate Renewal', 'term'],
  ['Revenue/Profit Sharing', 'money'],
  ['Minimum Commitment', 'money'],
  ['Price Restrictions', 'money'],
  ['Termination For Convenience', 'termination'],
  ['Cap On Liability', 'liability'],
  ['Uncapped Liability', 'liability'],
  ['Insurance', 'liability'],
  ['Exclusivity', 'restrictions'],
  ['Non-Compete', 'restrictions'],
  ['No-Solicit Of Customers', 'restrictions'],
  ['No-Solicit Of Employees', 'restrictions'],
  ['Anti-Assignment', 'assignment'],
  ['Change Of Control', 'assignment'],
  ['Ip Ownership Assignment', 'ip'],
  ['Joint Ip Ownership', 'ip'],
  ['License Grant', 'ip'],
  ['Governing Law', 'law'],
]

/** One labelled field of one contract: whether its line was filled and agrees with the label. */
export interface FieldResult {
  field: string
  line: DealSheetKey
  filled: boolean
  consistent: boolean
}

/** The results for every field the contract's labels fill (a clause column other than `[]`). */
export function scoreDealSheet(contract: CuadContract, sheet: DealSheet): FieldResult[] {
  const index = buildWhitespaceIndex(contract.content)
  const results: FieldResult[] = []
  for (const [field, key] of DEAL_SHEET_FIELDS) {
    const quoted = contract.clauses.get(field) ?? []
    if (quoted.length === 0) continue
    const line = sheet.lines.find((l) => l.key === key)
    const filled = line !== undefined && line.value !== null
    const answer = contract.answers.get(field) ?? ''
    const { spans } = locateClauses(index, quoted)
    const overlaps =
      filled && line.citations.some((c) => spans.some((s) => c.start < s.end && s.start < c.end))
    const consistent = filled && (valueAgrees(field, answer, line) ?? overlaps)
    results.push({ field, line: key, filled, consistent })
  }
  return results
}

/**
 * Whether the line's value agrees with a field's normalised answer: true or false for fields with
 * a comparable answer, null when only the citation can be checked.
 */
function valueAgrees(field: string, answer: string, line: DealSheetLine): boolean | null {
  const value = line.value ?? ''
  if (field === 'Parties') {
    const labelled = parsePartiesLabel(answer)
    if (labelled.length === 0) return null
    const named = value.split('; ').map((p) => normalisePartyName(p.replace(/\([^)]*\)$/, '')))
    return labelled.every((name) => named.some((n) => partyNamesMatch(n, name)))
  }
  if (field === 'Agreement Date' || field === 'Effective Date') {
    const expected = parseLabelDate(answer)
    return expected === null ? null : value === expected
  }
  if (field === 'Expiration Date') {
    const expected = parseLabelDate(answer)
    if (expected === 'perpetual') return /no fixed end|until terminated/.test(value) || null
    return expected === null ? null : value.includes(`ends ${expected}`) || null
  }
  if (field === 'Renewal Term') {
    const expected = parsePeriod(answer, 'months')
    const renews = /renews for ([^;]+)/.exec(value)?.[1]
    return expected === null || !renews
      ? null
      : periodsMatch(expected, parsePeriod(renews, 'months'))
  }
  if (field === 'Notice Period To Terminate Renewal') {
    const expected = parsePeriod(answer, 'days')
    const notice = /([^;]+)' notice to stop renewal/.exec(value)?.[1]
    return expected === null || !notice ? null : periodsMatch(expected, parsePeriod(notice, 'days'))
  }
  if (field === 'Governing Law') {
    const expected = normaliseJurisdiction(answer)
    const law = /^(.*?) law\b/.exec(value)?.[1]
    return expected === '' || !law ? null : normaliseJurisdiction(law) === expected
  }
  return null
}
