import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { Badge } from '../../components/ui/badge'
import { Progress } from '../../components/ui/progress'
import { useLiveRefresh } from '../../hooks/realtime'
import { passageStateQuery } from './api'

const LABELS = {
  queued: 'Waiting to be indexed for search by meaning',
  running: 'Indexing for search by meaning…',
  failed: 'Indexing for search by meaning failed',
  none: 'Not indexed for search by meaning',
} as const

/**
 * Whether an opened document can be found by meaning (its chunking job's state). While it is being
 * indexed, the percentage of its passages saved (the job's progress, which is saved / total) with
 * a bar, kept current by the job row's live changes, with the passages saved of the total (the job's
 * count) and when search by meaning becomes available: once every passage is indexed, which the
 * badge then says ("now"), having watched it index. On a database
 * without pgvector (`byMeaning` false) its passages are found by their words only, and the badge
 * says so rather than promising search by meaning.
 */
export function PassageStatus({ orgId, documentId }: { orgId: string; documentId: string }) {
  const state = useQuery(passageStateQuery(orgId, documentId))
  // While it is being indexed, its job's progress and end arrive as the job's row changes.
  const indexing = !state.data || state.data.status === 'queued' || state.data.status === 'running'
  useLiveRefresh(orgId, ['public.jobs'], passageStateQuery(orgId, documentId).queryKey, indexing)
  // Whether this reader saw the document still indexing: its end is then announced as news.
  // (State set while rendering, React's pattern for remembering what a query once answered.)
  const [sawIndexing, setSawIndexing] = useState(false)
  if (!sawIndexing && (state.data?.status === 'queued' || state.data?.status === 'running'))
    setSawIndexing(true)
  if (!state.data) return null
  const { status, passages, error, byMeaning, progress, saved, total } = state.data
  const by = byMeaning ? 'meaning' : 'words'
  const counted = `${passages} ${passages === 1 ? 'passage' : 'passages'}`
  // Floored, so 100% is shown only once every passage is saved.
  const percent = status === 'running' ? Math.floor(progress * 100) : null
  return (
    <div className="flex items-center gap-2 text-xs text-muted-foreground" aria-live="polite">
      <Badge variant={status === 'failed' ? 'destructive' : 'secondary'}>
        {status !== 'indexed'
          ? LABELS[status]
          : byMeaning
            ? `Searchable by meaning: ${counted}`
            : `Searchable by words only: ${counted}`}
      </Badge>
      {percent !== null && (
        <>
          <span>
            {saved != null && total != null
              ? `${saved} of ${total} passages indexed · ${percent}%`
              : `${percent}% indexed`}
          </span>
          <Progress aria-label="Indexing progress" value={percent} className="w-24" />
        </>
      )}
      {(status === 'queued' || status === 'running') && (
        <span>
          {total != null && status === 'running'
            ? `Search by ${by} covers the whole document once all ${total} passages are indexed.`
            : `Search by ${by} covers the document once it is indexed.`}
        </span>
      )}
      {status === 'indexed' && sawIndexing && (
        <span>Search by {by} is now available for this document.</span>
      )}
      {error && <span>{error}</span>}
      {status === 'indexed' && !byMeaning && (
        <span>
          This server&apos;s database has no pgvector, so search matches words, not meaning.
        </span>
      )}
    </div>
  )
}
