/** Jobs view data: the organisation's queued and running jobs with the titles of their subjects. */
import { queryOptions } from '@tanstack/react-query'
import { api, unwrap } from '../../lib/api'

/** The jobs the view lists at most: a firm's running work is a handful; more wait in the queue. */
const RUNNING_JOBS_LIMIT = 100

export const runningJobsKey = (orgId: string) => ['orgs', orgId, 'jobs', 'running'] as const

/** The organisation's queued and running jobs, newest first, with `subjects` naming their documents. */
export const runningJobsQuery = (orgId: string) =>
  queryOptions({
    queryKey: runningJobsKey(orgId),
    queryFn: ({ signal }) =>
      api
        .GET('/api/v1/orgs/{orgId}/jobs', {
          params: {
            path: { orgId },
            query: { status: 'queued,running', limit: RUNNING_JOBS_LIMIT },
          },
          signal,
        })
        .then(unwrap),
  })
