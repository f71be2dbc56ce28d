import { LoaderCircle } from 'lucide-react'
import { Badge } from '../../components/ui/badge'
import type { AnalysisPanelState } from './types'

const LABEL = { loading: 'Working', error: 'Error', ok: 'Ready' } as const
const VARIANT = { loading: 'secondary', error: 'destructive', ok: 'default' } as const

/** The panel's status (Working, Error or Ready) as a polite live region. */
export function AnalysisStatusBadge({
  status,
}: {
  status: Exclude<AnalysisPanelState['status'], 'idle'>
}) {
  return (
    <p role="status" aria-live="polite" className="m-0">
      <Badge variant={VARIANT[status]}>
        {status === 'loading' && <LoaderCircle className="animate-spin" aria-hidden="true" />}
        {LABEL[status]}
      </Badge>
    </p>
  )
}
