/**
 * The label of each deal-sheet line as a reader sees it, shared by every analysis engine so a deal
 * sheet reads the same whichever engine wrote it (the local engine's rules in
 * local/deal-sheet/build-deal-sheet.ts use the same words; deal-sheet-labels.test.ts holds them
 * together).
 */
import type { DealSheetKey } from '../types'

export const DEAL_SHEET_LABELS: Readonly<Record<DealSheetKey, string>> = {
  deal: 'Deal',
  parties: 'Parties and roles',
  agreementDate: 'Agreement date',
  effectiveDate: 'Effective date',
  term: 'Term and renewal',
  money: 'Money',
  termination: 'Termination rights',
  liability: 'Liability position',
  restrictions: 'Exclusivity, non-compete, non-solicit',
  assignment: 'Assignment and change of control',
  ip: 'IP ownership and licences',
  confidentiality: 'Confidentiality',
  law: 'Governing law and venue',
}
