/**
 * The empty parts of an AnalysisResult, for the parts a kind did not ask for. Kept apart from the
 * engines so that importing them loads no language or clause model.
 */
import type { KeyTerms, Summary } from './types'

/** The summary of a result whose kind did not ask for one: no text, no sentences. */
export function emptySummary(): Summary {
  return { text: '', sentences: [] }
}

/** The key terms of a result whose kind did not ask for them: no parties, every term null. */
export function emptyKeyTerms(): KeyTerms {
  return {
    parties: [],
    agreementDate: null,
    effectiveDate: null,
    expirationDate: null,
    governingLaw: null,
    renewalTerm: null,
    noticePeriod: null,
  }
}
