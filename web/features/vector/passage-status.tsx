import { useQuery } from '@tanstack/react-query'
import { Badge } from '../../components/ui/badge'
import { passageStateQuery } from './api'

const LABELS = {
  queued: 'Waiting to be indexed for search by meaning',
  running: 'Indexing for search by meaning…',
  failed: 'Indexing for search by meaning failed',
  none: 'Not indexed for search by meaning',
} as const

/** Whether an opened document can be found by meaning (its chunking job's state). */
export function PassageStatus({ orgId, documentId }: { orgId: string; documentId: string }) {
  const state = useQuery(passageStateQuery(orgId, documentId))
  if (!state.data) return null
  const { status, passages, error } = state.data
  return (
    <p className="flex items-center gap-2 text-xs text-muted-foreground" aria-live="polite">
      <Badge variant={status === 'failed' ? 'destructive' : 'secondary'}>
        {status === 'indexed'
          ? `Searchable by meaning: ${passages} ${passages === 1 ? 'passage' : 'passages'}`
          : LABELS[status]}
      </Badge>
      {error && <span>{error}</span>}
    </p>
  )
}
