import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card'
import { AnalysisHistory } from './components/analysis-history'
import { AnalysisPanel } from './analysis-panel'
import { RunAnalysisForm } from './components/run-analysis-form'
import type { Span } from './api/types'
import { useDocumentAnalysis } from './hooks/use-document-analysis'
import { orgSpeech } from '../../hooks/speech'

interface DocumentAnalysisProps {
  orgId: string
  documentId: string
  /** False when the document has no text (e.g. a scanned PDF), which disables running. */
  canAnalyze: boolean
  /** Why running is disabled, shown beside Analyze (e.g. a scan still being read by OCR). */
  analyzeDisabledReason?: string | null
  highlight: Span | null
  onSelectSpan: (span: Span) => void
}

/** Run an analysis of a document, reopen earlier ones, and show the result panel. */
export function DocumentAnalysis({
  orgId,
  documentId,
  canAnalyze,
  analyzeDisabledReason = null,
  highlight,
  onSelectSpan,
}: DocumentAnalysisProps) {
  const {
    panel,
    job,
    run,
    open,
    cancel,
    isRunning,
    analyses,
    historyStatus,
    chooseWeActFor,
    savingWeActFor,
  } = useDocumentAnalysis(orgId, documentId)
  return (
    <div className="flex flex-col gap-4">
      <Card>
        <CardHeader>
          <CardTitle>Analyze</CardTitle>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          <RunAnalysisForm
            onRun={run}
            isRunning={isRunning}
            disabled={!canAnalyze}
            disabledReason={canAnalyze ? null : analyzeDisabledReason}
          />
          <AnalysisHistory
            analyses={analyses}
            status={historyStatus}
            activeId={panel.status === 'ok' ? panel.analysis.id : null}
            onOpen={open}
          />
        </CardContent>
      </Card>
      <AnalysisPanel
        state={panel}
        job={job}
        onCancel={cancel}
        highlight={highlight}
        onSelectSpan={onSelectSpan}
        synthesize={orgSpeech(orgId)}
        onChooseWeActFor={chooseWeActFor}
        savingWeActFor={savingWeActFor}
      />
    </div>
  )
}
