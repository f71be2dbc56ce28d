/**
 * A contract's deal sheet: thirteen fixed lines, each cited by exact quotes or 'Not found', then the
 * 3–5 points that most need a lawyer's attention. Rules only, no network; written from drafting
 * conventions, not from any file.
 */
import type { DealSheet, DealSheetKey, DealSheetLine } from '../../types'
import { assignmentLine } from './assignment-line'
import { attentionPoints } from './attention-points'
import { confidentialityLine, ipLine, restrictionsLine } from './covenant-lines'
import { dateLine, dealLine, lawLine, partiesLine } from './identity-lines'
import { liabilityLine } from './liability-line'
import { moneyLine } from './money-line'
import type { LineFinding, SheetInput } from './sheet-input'
import { termLine } from './term-line'
import { terminationLine } from './termination-line'

export type { SheetInput } from './sheet-input'

/** Each line's label and rule, in the order of DEAL_SHEET_KEYS. */
const RULES: readonly [DealSheetKey, string, (input: SheetInput) => LineFinding][] = [
  ['deal', 'Deal', dealLine],
  ['parties', 'Parties and roles', partiesLine],
  ['agreementDate', 'Agreement date', (input) => dateLine(input, 'agreementDate')],
  ['effectiveDate', 'Effective date', (input) => dateLine(input, 'effectiveDate')],
  ['term', 'Term and renewal', termLine],
  ['money', 'Money', moneyLine],
  ['termination', 'Termination rights', terminationLine],
  ['liability', 'Liability position', liabilityLine],
  ['restrictions', 'Exclusivity, non-compete, non-solicit', restrictionsLine],
  ['assignment', 'Assignment and change of control', assignmentLine],
  ['ip', 'IP ownership and licences', ipLine],
  ['confidentiality', 'Confidentiality', confidentialityLine],
  ['law', 'Governing law and venue', lawLine],
]

/** Builds the deal sheet of an analysed contract (see SheetInput). Never throws. */
export function buildDealSheet(input: SheetInput): DealSheet {
  const lines: DealSheetLine[] = RULES.map(([key, label, rule]) => {
    const found = rule(input)
    return found && found.citations.length > 0
      ? { key, label, value: found.value, citations: found.citations }
      : { key, label, value: null, citations: [] }
  })
  return { lines, attention: attentionPoints(input, lines) }
}

/** The deal sheet as plain text a lawyer can paste: one line per point, then the attention list. */
export function dealSheetText(sheet: DealSheet): string {
  const lines = sheet.lines.map((line) => `${line.label}: ${line.value ?? 'Not found'}`)
  const points = sheet.attention.map((point) => `- ${point.text}`)
  return [
    ...lines,
    ...(points.length > 0 ? ['', 'Points for a lawyer’s attention:', ...points] : []),
  ].join('\n')
}
