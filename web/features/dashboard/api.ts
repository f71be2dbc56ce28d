/** Dashboard home data access: the four tiles of the organisation or one app. */
import { queryOptions } from '@tanstack/react-query'
import { api, unwrap } from '../../lib/api'
import type { components } from '../../lib/api-schema'

export type DashboardOverview = components['schemas']['DashboardOverview']

/** The home's tiles: documents, analyses, voice recordings and members. */
export const overviewQuery = (orgId: string, appId: string | null) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'overview', { appId }] as const,
    queryFn: ({ signal }): Promise<DashboardOverview> =>
      api
        .GET('/api/v1/orgs/{orgId}/analytics/overview', {
          params: { path: { orgId }, query: { appId: appId ?? undefined } },
          signal,
        })
        .then(unwrap),
  })
