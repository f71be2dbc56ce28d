import { ClausesSection } from './clauses-section'
import { KeyTermsSection } from './key-terms-section'
import { RisksSection } from './risks-section'
import { SummarySection } from './summary-section'
import type { Analysis, AnalysisKind, Span, WeActFor } from '../api/types'
import { WeActForChoice } from './we-act-for-choice'

interface AnalysisPrettyViewProps {
  analysis: Analysis
  highlight: Span | null
  onSelectSpan: (span: Span) => void
  /** Saves whom the firm acts for; without it the choice is not offered. */
  onChooseWeActFor?: (choice: WeActFor | null) => void
  /** True while that choice is being saved. */
  savingWeActFor?: boolean
}

/** Which sections each kind asks for; a section not asked for still shows if it has findings. */
const SECTIONS: Record<AnalysisKind, { summary: boolean; clauses: boolean; risks: boolean }> = {
  full: { summary: true, clauses: true, risks: true },
  summarize: { summary: true, clauses: false, risks: false },
  clauses: { summary: false, clauses: true, risks: false },
  risks: { summary: false, clauses: false, risks: true },
}

/**
 * Readable view of an analysis: summary, key terms, clauses by category, risks by severity; when
 * risks say whom they bind, a "We act for" choice that is saved on the document (the server then
 * returns the risks oriented to it).
 */
export function AnalysisPrettyView({
  analysis,
  highlight,
  onSelectSpan,
  onChooseWeActFor,
  savingWeActFor = false,
}: AnalysisPrettyViewProps) {
  const { result } = analysis
  const asked = SECTIONS[analysis.kind]
  const { keyTerms } = result
  const hasKeyTerms =
    keyTerms.parties.length > 0 ||
    [
      keyTerms.agreementDate,
      keyTerms.effectiveDate,
      keyTerms.expirationDate,
      keyTerms.governingLaw,
      keyTerms.renewalTerm,
      keyTerms.noticePeriod,
    ].some((term) => term !== null)
  const shared = { highlight, onSelectSpan }
  const showRisks = asked.risks || result.risks.length > 0
  const canOrient = result.risks.some((risk) => (risk.binds ?? []).length > 0)
  return (
    <div className="flex flex-col gap-5">
      {(asked.summary || result.summary.sentences.length > 0) && (
        <SummarySection summary={result.summary} {...shared} />
      )}
      {(asked.summary || hasKeyTerms) && <KeyTermsSection keyTerms={keyTerms} {...shared} />}
      {(asked.clauses || result.clauses.length > 0) && (
        <ClausesSection clauses={result.clauses} {...shared} />
      )}
      {showRisks && canOrient && keyTerms.parties.length > 1 && onChooseWeActFor && (
        <WeActForChoice
          parties={keyTerms.parties}
          value={analysis.weActFor}
          ourParty={analysis.ourParty}
          onChange={onChooseWeActFor}
          saving={savingWeActFor}
        />
      )}
      {showRisks && <RisksSection risks={result.risks} {...shared} />}
    </div>
  )
}
