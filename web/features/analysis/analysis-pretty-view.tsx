import { useState } from 'react'
import { ClausesSection } from './clauses-section'
import { KeyTermsSection } from './key-terms-section'
import { OurPartyChoice } from './our-party-choice'
import { RisksSection } from './risks-section'
import { SummarySection } from './summary-section'
import type { Analysis, AnalysisKind, Span } from './types'

interface AnalysisPrettyViewProps {
  analysis: Analysis
  highlight: Span | null
  onSelectSpan: (span: Span) => void
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
 * risks say whom they bind, an "Our party" choice orients them on the client (no new request).
 */
export function AnalysisPrettyView({ analysis, highlight, onSelectSpan }: AnalysisPrettyViewProps) {
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
  const [ourParty, setOurParty] = useState<string | null>(null)
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
      {showRisks && canOrient && keyTerms.parties.length > 1 && (
        <OurPartyChoice parties={keyTerms.parties} value={ourParty} onChange={setOurParty} />
      )}
      {showRisks && <RisksSection risks={result.risks} ourParty={ourParty} {...shared} />}
    </div>
  )
}
