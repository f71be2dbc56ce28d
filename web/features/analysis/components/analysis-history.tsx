import { History } from 'lucide-react'
import { useId } from 'react'
import { cn } from '../../../lib/utils'
import { analysisKindLabel } from './analysis-kinds'
import { formatDateTime } from './format-date-time'
import type { Analysis } from '../api/types'

interface AnalysisHistoryProps {
  analyses: readonly Analysis[]
  status: 'pending' | 'error' | 'success'
  /** The analysis shown in the panel, marked as current. */
  activeId: string | null
  onOpen: (analysis: Analysis) => void
}

/** The document's previous analyses, newest first; each opens in the analysis panel. */
export function AnalysisHistory({ analyses, status, activeId, onOpen }: AnalysisHistoryProps) {
  const headingId = useId()
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-2">
      <h3 id={headingId} className="flex items-center gap-1.5 text-sm font-semibold">
        <History className="size-4" aria-hidden="true" />
        Previous analyses
      </h3>
      {status === 'pending' && <p className="text-sm text-muted-foreground">Loading…</p>}
      {status === 'error' && (
        <p className="text-sm text-destructive">Could not load previous analyses.</p>
      )}
      {status === 'success' && analyses.length === 0 && (
        <p className="text-sm text-muted-foreground">No analyses yet.</p>
      )}
      {analyses.length > 0 && (
        <ul className="flex flex-col gap-1">
          {analyses.map((analysis) => (
            <li key={analysis.id}>
              <button
                type="button"
                aria-current={analysis.id === activeId ? 'true' : undefined}
                onClick={() => onOpen(analysis)}
                className={cn(
                  'w-full rounded-md px-2 py-1 text-left text-sm outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring',
                  analysis.id === activeId && 'bg-accent font-medium',
                )}
              >
                {analysisKindLabel(analysis.kind)} · {formatDateTime(analysis.createdAt)}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
