import { LoaderCircle } from 'lucide-react'
import { Badge } from './ui/badge'

const LABEL = { loading: 'Working', error: 'Error', ok: 'Ready' } as const
const VARIANT = { loading: 'secondary', error: 'destructive', ok: 'default' } as const

/**
 * An AI result panel's status (Working, Error or Ready: the spec's analysis panel states) as a
 * polite live region; the document analysis and the voice memo panels share it.
 */
export function PanelStatusBadge({ status }: { status: 'loading' | 'error' | 'ok' }) {
  return (
    <p role="status" aria-live="polite" className="m-0">
      <Badge variant={VARIANT[status]}>
        {status === 'loading' && <LoaderCircle className="animate-spin" aria-hidden="true" />}
        {LABEL[status]}
      </Badge>
    </p>
  )
}
