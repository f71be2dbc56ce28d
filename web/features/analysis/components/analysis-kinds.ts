/** The analysis kinds offered to users, in menu order, with their labels. */
import type { AnalysisKind } from '../api/types'

/** Menu order: the full analysis first because it is the default. */
export const ANALYSIS_KINDS: readonly { value: AnalysisKind; label: string }[] = [
  { value: 'full', label: 'Full analysis' },
  { value: 'summarize', label: 'Summary' },
  { value: 'clauses', label: 'Clauses' },
  { value: 'risks', label: 'Risks' },
]

/** The user-facing label of a kind, e.g. 'summarize' → 'Summary'. */
export function analysisKindLabel(kind: AnalysisKind): string {
  return ANALYSIS_KINDS.find((k) => k.value === kind)?.label ?? kind
}
