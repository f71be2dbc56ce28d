import { useState } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import {
  cancelJob,
  isActive,
  latestJobQuery,
  useJob,
  type Job,
  type JobKind,
} from '../../../hooks/jobs'

/**
 * The one data-management job of `kind` a panel follows (export, import or clone, issue 27): the
 * organisation's job of that kind already running when the page opens (so a reload finds it
 * again), else the one the panel started (`follow`). When it ends, a failure is toasted and stays
 * shown; a success (`onSucceeded`) or a cancel ('{label} cancelled') lets the panel go back to
 * idle. `start(request)` sends the request that queues the job (resolving to it, `{ id }`) and
 * follows the job; a refused request is toasted (its problem detail, else 'The {label} failed.'),
 * and `start` itself never rejects. `underWay` is whether the job is still under way (or not yet
 * read); `busy` is that or a `start` still waiting for its answer: the panel is busy only then, so
 * a failed job can be started again. `cancel` asks the server to cancel it, toasting a refusal.
 */
export function useTenantJob(
  orgId: string,
  kind: JobKind,
  label: string,
  onSucceeded: (job: Job) => void,
) {
  const queryClient = useQueryClient()
  // undefined: show a job already running when the page opens; null: show none.
  const [chosenJobId, follow] = useState<string | null>()
  const [starting, setStarting] = useState(false)
  const runningQuery = latestJobQuery(orgId, { kind, active: true })
  const running = useQuery({ ...runningQuery, refetchOnMount: 'always' })
  const jobId = chosenJobId === undefined ? running.data?.id : (chosenJobId ?? undefined)
  const job = useJob(orgId, jobId, (ended: Job) => {
    queryClient.setQueryData(runningQuery.queryKey, null)
    if (ended.status === 'failed') {
      toast.error(ended.error ?? `The ${label.toLowerCase()} failed.`)
      return
    }
    follow(null)
    if (ended.status === 'succeeded') onSucceeded(ended)
    else toast(`${label} cancelled`)
  })
  const cancel = () => {
    if (!jobId) return
    void cancelJob(orgId, jobId).catch((error: unknown) =>
      toast.error('Could not cancel', {
        description: error instanceof Error ? error.message : undefined,
      }),
    )
  }
  const start = async (request: () => Promise<{ id: string }>) => {
    setStarting(true)
    try {
      follow((await request()).id)
    } catch (error) {
      toast.error(error instanceof Error ? error.message : `The ${label.toLowerCase()} failed.`)
    } finally {
      setStarting(false)
    }
  }
  const underWay = jobId !== undefined && (job === undefined || isActive(job))
  return { jobId, job, busy: starting || underWay, start, cancel }
}
