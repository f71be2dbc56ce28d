import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card'
import { Skeleton } from '../../components/ui/skeleton'
import { JobProgress } from '../../components/job-progress'
import type { Job } from '../../hooks/jobs'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs'
import { AnalysisPrettyView } from './components/analysis-pretty-view'
import { AnalysisRawView } from './components/analysis-raw-view'
import { PanelStatusBadge } from '../../components/panel-status-badge'
import { analysisKindLabel } from './components/analysis-kinds'
import { formatDateTime } from './components/format-date-time'
import type { AnalysisPanelState, Span, WeActFor } from './api/types'
import { ListenButton } from '../../components/listen-button'
import type { Synthesize } from '../../hooks/speech'
import { analysisSpeechText } from './components/analysis-speech-text'

interface AnalysisPanelProps {
  state: AnalysisPanelState
  /** The background job of a long document's analysis, while the panel is Working. */
  job?: Job
  /** Cancels that job. */
  onCancel?: () => void
  /** The highlighted passage, so the matching finding can be marked. */
  highlight: Span | null
  /** Called when the user picks a finding; the caller highlights the span in the document. */
  onSelectSpan: (span: Span) => void
  /** Text to speech for the Listen button (shown when given and the analysis is ready). */
  synthesize?: Synthesize
  /** Saves whom the firm acts for in the document (the "We act for" choice). */
  onChooseWeActFor?: (choice: WeActFor | null) => void
  /** True while that choice is being saved. */
  savingWeActFor?: boolean
}

/**
 * The AI analysis result: hidden while idle; otherwise a status (Working, Error, Ready) and, when
 * ready, a Pretty (default) / Raw view of the result.
 */
export function AnalysisPanel({
  state,
  job,
  onCancel,
  highlight,
  onSelectSpan,
  synthesize,
  onChooseWeActFor,
  savingWeActFor,
}: AnalysisPanelProps) {
  if (state.status === 'idle') return null
  return (
    <Card role="region" aria-label="Analysis result">
      <CardHeader className="flex flex-row items-start justify-between gap-4 space-y-0">
        <div className="flex flex-col gap-1.5">
          <CardTitle>AI analysis</CardTitle>
          {state.status === 'ok' && (
            <CardDescription>
              {analysisKindLabel(state.analysis.kind)} · {formatDateTime(state.analysis.createdAt)}{' '}
              · {state.analysis.engine}
              {state.analysis.model ? ` (${state.analysis.model})` : ''}
            </CardDescription>
          )}
        </div>
        <div className="flex items-center gap-2">
          {state.status === 'ok' && synthesize && (
            <ListenButton
              text={analysisSpeechText(state.analysis.result)}
              synthesize={synthesize}
              subject="analysis"
            />
          )}
          <PanelStatusBadge status={state.status} />
        </div>
      </CardHeader>
      <CardContent>
        {state.status === 'loading' && state.jobId && (
          <JobProgress job={job} label="Analysis" onCancel={onCancel} />
        )}
        {state.status === 'loading' && !state.jobId && (
          <div className="flex flex-col gap-2">
            <span className="sr-only">Analyzing document…</span>
            <Skeleton className="h-4 w-3/4" />
            <Skeleton className="h-4 w-full" />
            <Skeleton className="h-4 w-5/6" />
          </div>
        )}
        {state.status === 'error' && <p className="text-sm text-destructive">{state.message}</p>}
        {state.status === 'ok' && (
          <Tabs defaultValue="pretty">
            <TabsList aria-label="Result view">
              <TabsTrigger value="pretty">Pretty</TabsTrigger>
              <TabsTrigger value="raw">Raw</TabsTrigger>
            </TabsList>
            <TabsContent value="pretty">
              <AnalysisPrettyView
                analysis={state.analysis}
                highlight={highlight}
                onSelectSpan={onSelectSpan}
                onChooseWeActFor={onChooseWeActFor}
                savingWeActFor={savingWeActFor}
              />
            </TabsContent>
            <TabsContent value="raw">
              <AnalysisRawView result={state.analysis.result} />
            </TabsContent>
          </Tabs>
        )}
      </CardContent>
    </Card>
  )
}
