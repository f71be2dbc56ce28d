import { ListenButton } from '../../../components/listen-button'
import { PanelStatusBadge } from '../../../components/panel-status-badge'
import { Skeleton } from '../../../components/ui/skeleton'
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '../../../components/ui/card'
import type { Synthesize } from '../../../hooks/speech'
import type { MemoSummary } from '../api/recordings'
import { MemoSummaryView, type HeardSegment } from './memo-summary-view'
import type { SummaryState } from '../hooks/use-voice-memo'

/**
 * The voice screen's analysis panel for the memo just recorded: hidden while idle, Working while
 * it is transcribed, an error, or (Ready) its memo summary — key points, decisions, action items
 * with owner and due date, names, each citing its segment's time (decision 0056) — the summary
 * shown under the recording after a reload, never the transcript again. A cited time calls
 * `onCite` with the recording and the segment's start in seconds; Listen reads the summary aloud.
 */
export function MemoSummaryPanel({
  state,
  synthesize,
  onCite,
  segments,
}: {
  state: SummaryState
  synthesize: Synthesize
  onCite: (recordingId: string, start: number) => void
  /** The memo's transcript segments (their confidence), once read; flagged in the summary. */
  segments?: readonly HeardSegment[]
}) {
  if (state.status === 'idle') return null
  return (
    <Card role="region" aria-label="Analysis result">
      <CardHeader className="flex flex-row items-start justify-between gap-4 space-y-0">
        <div className="flex flex-col gap-1.5">
          <CardTitle>Memo summary</CardTitle>
          {state.status === 'ok' && <CardDescription>{state.title}</CardDescription>}
        </div>
        <div className="flex items-center gap-2">
          {state.status === 'ok' && (
            <ListenButton
              text={memoSpeechText(state.memo)}
              synthesize={synthesize}
              subject="summary"
            />
          )}
          <PanelStatusBadge status={state.status} />
        </div>
      </CardHeader>
      <CardContent>
        {state.status === 'loading' && (
          <div className="flex flex-col gap-2">
            <span className="sr-only">Transcribing and summarising the memo…</span>
            <Skeleton className="h-4 w-3/4" />
            <Skeleton className="h-4 w-full" />
          </div>
        )}
        {state.status === 'error' && <p className="text-sm text-destructive">{state.message}</p>}
        {state.status === 'ok' && (
          <MemoSummaryView
            title={state.title}
            summary={state.memo}
            onCite={(start) => onCite(state.recordingId, start)}
            segments={segments}
          />
        )}
      </CardContent>
    </Card>
  )
}

/** The summary as sentences to read aloud, section by section. */
function memoSpeechText({ keyPoints, decisions, actionItems, names }: MemoSummary): string {
  const section = (heading: string, lines: string[]) =>
    lines.length > 0 ? `${heading}: ${lines.join('. ')}.` : ''
  return [
    section(
      'Key points',
      keyPoints.map((p) => p.text),
    ),
    section(
      'Decisions',
      decisions.map((d) => d.text),
    ),
    section(
      'Action items',
      actionItems.map(
        (a) => `${a.owner ?? 'Unassigned'}: ${a.task}${a.due ? `, due ${a.due}` : ''}`,
      ),
    ),
    section(
      'Names mentioned',
      names.map((n) => n.name),
    ),
  ]
    .filter(Boolean)
    .join(' ')
}
