/**
 * Background jobs on the web side: query factories for one job and a subject's latest job of a
 * kind, and `useJob`, which follows a job over the organisation's realtime channel (realtime.ts
 * `followJob`: `job` messages on the page's one WebSocket, decision 0125) and keeps the query
 * cache current, so a progress bar survives a reload: the page finds the job again with
 * `latestJobQuery`, running or ended.
 */
import { queryOptions, replaceEqualDeep, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useEffectEvent, useRef, useState } from 'react'
import { api, mayPassOnRetry, unwrap } from '../lib/api'
import type { components } from '../lib/api-schema'
import { followJob } from './realtime'

/**
 * A background job as the API returns it; `progress` is 0..1. A union discriminated by `kind`:
 * comparing `job.kind` with a kind narrows `result` to that kind's result, with no cast.
 */
export type Job = components['schemas']['Job']

/** The kinds of jobs the server runs (its job catalogue), as the OpenAPI document lists them. */
export type JobKind = components['schemas']['JobKind']

/** Whether a job has not ended yet. */
export function isActive(job: Pick<Job, 'status'>): boolean {
  return job.status === 'queued' || job.status === 'running'
}

/**
 * Which of two states of one job the cache keeps: the new one, unless the old one has ended and
 * the new one has not. A job never becomes active again once ended, so such a new state is an
 * older snapshot arriving late: a fetch the page sent when it followed the job can answer after
 * the channel's last `job` message, and would otherwise show the job running for ever, with the
 * follow already ended. Otherwise TanStack Query's own structural sharing.
 */
function laterJobState(old: unknown, next: unknown): unknown {
  const ended = (job: unknown) => job != null && !isActive(job as Job)
  return ended(old) && !ended(next) ? old : replaceEqualDeep(old, next)
}

export const jobQuery = (orgId: string, jobId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'jobs', jobId],
    queryFn: ({ signal }) =>
      api
        .GET('/api/v1/orgs/{orgId}/jobs/{jobId}', { params: { path: { orgId, jobId } }, signal })
        .then(unwrap),
    // Applied to fetched answers and to the channel's setQueryData alike.
    structuralSharing: laterJobState,
  })

/**
 * The organisation's newest job of `kind`, or null if none: of one subject when `subjectId` is
 * given (e.g. a document's analysis), and only a queued or running one when `active`.
 */
export const latestJobQuery = (
  orgId: string,
  filter: { kind: JobKind; subjectId?: string; active?: boolean },
) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'jobs', { ...filter, latest: true }],
    queryFn: ({ signal }) =>
      api
        .GET('/api/v1/orgs/{orgId}/jobs', {
          params: {
            path: { orgId },
            query: {
              kind: filter.kind,
              subjectId: filter.subjectId,
              status: filter.active ? 'queued,running' : undefined,
              limit: 1,
            },
          },
          signal,
        })
        .then(unwrap)
        .then((page) => page.items[0] ?? null),
  })

/**
 * How often a job is refetched while the realtime channel is down (ms): the socket dropped and is
 * not back yet, the server refused it (429, too many open) or closed it for good, or the browser
 * has no WebSocket. Slow enough that many pages polling cost little, quick enough for a progress
 * bar.
 */
const CHANNEL_FALLBACK_MS = 5000

/** Asks the server to cancel a job; resolves to the job as it now stands. */
export function cancelJob(orgId: string, jobId: string): Promise<Job> {
  return api
    .POST('/api/v1/orgs/{orgId}/jobs/{jobId}/cancel', { params: { path: { orgId, jobId } } })
    .then(unwrap)
}

/**
 * The live state of a job (undefined while loading, or with no `jobId`). While it is active the
 * organisation's realtime channel pushes each change into the cache (`job` messages); the server
 * ends the follow when the job ends. `onEnd` is called once per job with its final state, however
 * that state arrived: from the channel (whose first message already is final for a job that ended
 * before the page looked), from the first fetch, or from the refetches while the channel is down
 * (dropped, refused, closed for good, or no WebSocket): then the job is refetched every
 * CHANNEL_FALLBACK_MS until it ends or the channel is back (when it is read once more, as changes
 * may have been missed), quietly (no error shown: the channel is only a faster path), and so is a
 * job whose first read failed (not with a 4xx), until one answers.
 */
export function useJob(
  orgId: string,
  jobId: string | undefined,
  onEnd?: (job: Job) => void,
): Job | undefined {
  const queryClient = useQueryClient()
  const ended = useEffectEvent((job: Job) => onEnd?.(job))
  const reported = useRef<string | undefined>(undefined)
  // The job followed while the channel is down, so that another job is followed afresh.
  const [unfollowed, setUnfollowed] = useState<string | undefined>(undefined)
  const query = useQuery({
    ...jobQuery(orgId, jobId ?? ''),
    enabled: Boolean(jobId),
    // Also while no state was ever read because the read failed in a way that may pass (network,
    // 5xx; not a 4xx): else nothing would read it again, and the page would wait for ever.
    refetchInterval: (q) =>
      (unfollowed === jobId || typeof WebSocket === 'undefined') &&
      (q.state.data
        ? isActive(q.state.data)
        : q.state.error !== null && mayPassOnRetry(q.state.error))
        ? CHANNEL_FALLBACK_MS
        : false,
  })
  const job = jobId ? query.data : undefined
  useEffect(() => {
    if (job && job.id === jobId && !isActive(job) && reported.current !== jobId) {
      reported.current = jobId
      ended(job)
    }
  }, [job, jobId])
  useEffect(() => {
    if (!jobId) return
    if (typeof WebSocket === 'undefined') return
    const { queryKey } = jobQuery(orgId, jobId)
    const read = () => void queryClient.invalidateQueries({ queryKey })
    return followJob(orgId, jobId, {
      onJob: (update) => queryClient.setQueryData(queryKey, update),
      // Not this organisation's (any more): its read answers why (a 404).
      onGone: read,
      // Read at once (as the channel may have dropped a change), then every CHANNEL_FALLBACK_MS.
      onLost: () => {
        setUnfollowed(jobId)
        read()
      },
      onBack: () => {
        setUnfollowed((current) => (current === jobId ? undefined : current))
        read()
      },
    })
  }, [orgId, jobId, queryClient])
  return job
}
