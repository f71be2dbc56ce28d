import { useEffect } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Trash2Icon } from 'lucide-react'
import { toast } from 'sonner'
import { Badge } from '../../../components/ui/badge'
import { Button } from '../../../components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card'
import { cn } from '../../../lib/utils'
import { useLinkedId } from '../../../lib/use-linked-id'
import { useLiveRefresh } from '../../../hooks/realtime'
import { deleteRecording, recordingQuery, recordingsKey, recordingsQuery } from '../api/recordings'
import { RecordingPlayer, type Cue } from './recording-player'
import { refreshAfterWrite } from '../../../lib/refresh-after-write'

/**
 * The organisation's (or the chosen app's) recordings, newest first, each playable with its
 * transcript beside it. The recording the address names (`?recording=<id>`, an audit link) is
 * marked and scrolled to, and shown first when it is older than the latest 50. `cue` plays its
 * recording from a time (a time cited in the memo summary panel).
 */
export function RecordingsList({
  orgId,
  appId,
  cue = null,
}: {
  orgId: string
  appId: string | null
  cue?: Cue | null
}) {
  const queryClient = useQueryClient()
  const list = useQuery(recordingsQuery(orgId, appId))
  // A recording's status (transcribed, summarised) and a colleague's new recording show as
  // they are written, without polling.
  useLiveRefresh(orgId, ['public.recordings'], recordingsKey(orgId))
  const remove = useMutation({
    mutationFn: (recordingId: string) => deleteRecording(orgId, recordingId),
    onSuccess: () => refreshAfterWrite(queryClient, recordingsKey(orgId)),
    onError: (error) => toast.error(error.message),
  })
  const [linkedId] = useLinkedId('recording')
  const listed = list.data?.items ?? []
  const linkedListed = linkedId !== null && listed.some((r) => r.id === linkedId)
  const linked = useQuery({
    ...recordingQuery(orgId, linkedId ?? ''),
    enabled: linkedId !== null && list.isSuccess && !linkedListed,
  })
  const items = !linkedListed && linked.data ? [linked.data, ...listed] : listed
  const linkedShown = linkedListed || linked.data !== undefined
  useEffect(() => {
    if (!linkedId || !linkedShown) return
    // jsdom has no scrollIntoView.
    document.getElementById(`recording-${linkedId}`)?.scrollIntoView?.({ block: 'center' })
  }, [linkedId, linkedShown])
  return (
    <Card role="region" aria-label="Recordings">
      <CardHeader>
        <CardTitle>Recordings</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        {list.isPending && <p className="text-sm text-muted-foreground">Loading recordings…</p>}
        {list.isError && (
          <p role="alert" className="text-sm text-destructive">
            The recordings could not be loaded: {list.error.message}
          </p>
        )}
        {list.isSuccess && items.length === 0 && (
          <p className="text-sm text-muted-foreground">No recordings yet.</p>
        )}
        {items.map((recording) => (
          <article
            key={recording.id}
            id={`recording-${recording.id}`}
            aria-current={recording.id === linkedId ? 'true' : undefined}
            className={cn(
              'flex flex-col gap-3 border-b pb-6 last:border-0',
              recording.id === linkedId && 'rounded-md ring-2 ring-primary ring-offset-4',
            )}
          >
            <div className="flex items-center justify-between gap-2">
              <h3 className="font-medium">{recording.title}</h3>
              <div className="flex items-center gap-2">
                <Badge variant="outline">{recording.status}</Badge>
                <Button
                  type="button"
                  variant="ghost"
                  size="icon"
                  aria-label={`Delete ${recording.title}`}
                  onClick={() => {
                    if (window.confirm('Delete this recording and its transcript?'))
                      remove.mutate(recording.id)
                  }}
                >
                  <Trash2Icon aria-hidden="true" />
                </Button>
              </div>
            </div>
            <RecordingPlayer
              orgId={orgId}
              recording={recording}
              cue={cue?.recordingId === recording.id ? cue : null}
            />
          </article>
        ))}
      </CardContent>
    </Card>
  )
}
