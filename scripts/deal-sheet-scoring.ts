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

/**
 * The CUAD categories whose labelled passages ground each deal-sheet line (issue 48's
 * `deal_grounding`): a line's citations should overlap a passage the lawyers labelled for the
 * field the line reports. Confidentiality has no CUAD category and is not scored.
 */
export const DEAL_LINE_CATEGORIES: Readonly<Partial<Record<DealSheetKey, readonly string[]>>> = {
  deal: ['Document Name'],
  parties: ['Parties'],
  agreementDate: ['Agreement Date'],
  effectiveDate: ['Effective Date'],
  term: ['Expiration Date', 'Renewal Term', 'Notice Period To Terminate Renewal'],
  money: ['Revenue/Profit Sharing', 'Minimum Commitment', 'Price Restrictions'],
  termination: ['Termination For Convenience'],
  liability: ['Cap On Liability', 'Uncapped Liability', 'Insurance'],
  restrictions: [
    'Exclusivity',
    'Non-Compete',
    'No-Solicit Of Customers',
    'No-Solicit Of Employees',
    'Competitive Restriction Exception',
  ],
  assignment: ['Anti-Assignment', 'Change Of Control'],
  ip: [
    'Ip Ownership Assignment',
    'Joint Ip Ownership',
    'License Grant',
    'Non-Transferable License',
    'Irrevocable Or Perpetual License',
    'Affiliate License-Licensor',
    'Affiliate License-Licensee',
    'Unlimited/All-You-Can-Eat-License',
  ],
  law: ['Governing Law'],
}

/** One scored deal-sheet line: its key and whether a citation overlaps its field's passages. */
export interface LineGrounding {
  line: DealSheetKey
  grounded: boolean
}

/**
 * The filled lines of `sheet` that can be scored, each grounded or not. A line is scored when the
 * contract has a located labelled passage in one of its categories (DEAL_LINE_CATEGORIES): where
 * CUAD labels nothing for the field (it has no category for a plain price, say) its silence is no
 * verdict on the line. `labelled(category)` gives the category's located passages.
 */
export function groundDealSheet(
  sheet: DealSheet,
  labelled: (category: string) => readonly { start: number; end: number }[],
): LineGrounding[] {
  const results: LineGrounding[] = []
  for (const line of sheet.lines) {
    const categories = DEAL_LINE_CATEGORIES[line.key]
    if (!categories || line.value === null) continue
    const passages = categories.flatMap((category) => labelled(category))
    if (passages.length === 0) continue
    const grounded = line.citations.some((c) =>
      passages.some((p) => c.start < p.end && p.start < c.end),
    )
    results.push({ line: line.key, grounded })
  }
  return results
}
