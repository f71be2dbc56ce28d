/**
 * Background jobs on the web side: query factories for one job and a subject's latest job of a
 * kind, and `useJob`, which follows a job through the server's event stream (EventSource on
 * `/api/v1/orgs/{orgId}/jobs/{jobId}/events`) and keeps the query cache current, so a progress bar
 * survives a reload: the page finds the job again with `latestJobQuery`, running or ended.
 */
import { queryOptions, replaceEqualDeep, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useEffectEvent, useRef, useState } from 'react'
import { api, mayPassOnRetry, unwrap } from './api'
import type { components } from './api-schema'

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
 * older snapshot arriving late: a fetch the page sent when it opened the job's event stream can
 * answer after the stream's last event, and would otherwise show the job running for ever, with
 * the stream already closed. Otherwise TanStack Query's own structural sharing.
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
    // Applied to fetched answers and to the event stream's setQueryData alike.
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
 * How often a job is refetched while it has no event stream (ms): the server refused the stream
 * (429, too many open: issue 29) or the browser could not reopen it. Slow enough that many pages
 * polling cost little, quick enough for a progress bar.
 */
const STREAM_FALLBACK_MS = 5000

/** Asks the server to cancel a job; resolves to the job as it now stands. */
export function cancelJob(orgId: string, jobId: string): Promise<Job> {
  return api
    .POST('/api/v1/orgs/{orgId}/jobs/{jobId}/cancel', { params: { path: { orgId, jobId } } })
    .then(unwrap)
}

/**
 * The live state of a job (undefined while loading, or with no `jobId`). While it is active an
 * event stream pushes each change into the cache; the stream closes when the job ends. `onEnd`
 * is called once per job with its final state, however that state arrived: from the stream (whose
 * first event already is final for a job that ended before the page looked), from the first
 * fetch, or from the refetches that follow a stream the browser could not open or reopen (the
 * server refuses one with 429 past its cap of open streams): then the job is refetched every
 * STREAM_FALLBACK_MS until it ends, quietly (no error shown: the stream is only a faster path),
 * and so is a job whose first read failed (not with a 4xx), until one answers.
 */
export function useJob(
  orgId: string,
  jobId: string | undefined,
  onEnd?: (job: Job) => void,
): Job | undefined {
  const queryClient = useQueryClient()
  const ended = useEffectEvent((job: Job) => onEnd?.(job))
  const reported = useRef<string | undefined>(undefined)
  // The job whose stream is gone, so that another job gets a stream again.
  const [streamless, setStreamless] = useState<string | undefined>(undefined)
  const query = useQuery({
    ...jobQuery(orgId, jobId ?? ''),
    enabled: Boolean(jobId),
    // Also while no state was ever read because the read failed in a way that may pass (network,
    // 5xx; not a 4xx): else nothing would read it again, and the page would wait for ever.
    refetchInterval: (q) =>
      streamless === jobId &&
      (q.state.data
        ? isActive(q.state.data)
        : q.state.error !== null && mayPassOnRetry(q.state.error))
        ? STREAM_FALLBACK_MS
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
    if (!jobId || typeof EventSource === 'undefined') return
    const source = new EventSource(`/api/v1/orgs/${orgId}/jobs/${jobId}/events`)
    source.onmessage = (event: MessageEvent<string>) => {
      const update = JSON.parse(event.data) as Job
      queryClient.setQueryData(jobQuery(orgId, jobId).queryKey, update)
      if (!isActive(update)) source.close()
    }
    // The browser reconnects by itself after a network error; a closed stream after the end is
    // expected. A refused stream or a failed reconnect falls back to refetching (see above).
    source.onerror = () => {
      if (source.readyState !== EventSource.CLOSED) return
      setStreamless(jobId)
      void queryClient.invalidateQueries({ queryKey: jobQuery(orgId, jobId).queryKey })
    }
    return () => source.close()
  }, [orgId, jobId, queryClient])
  return job
}
