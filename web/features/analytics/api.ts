/** Analytics data access: the usage of a period for the organisation or one app. */
import { queryOptions } from '@tanstack/react-query'
import { api, unwrap } from '../../lib/api'
import type { components } from '../../lib/api-schema'

export type Usage = components['schemas']['Usage']
export type UsageDay = components['schemas']['UsageDay']

/** The periods the screen offers, in days; 30 ('Last 30 days') is the default. */
export const PERIODS = [7, 30, 90] as const
export type Period = (typeof PERIODS)[number]

/** The totals and the daily series of the last `days` days. */
export const usageQuery = (orgId: string, appId: string | null, days: Period) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'usage', { appId, days }] as const,
    queryFn: ({ signal }): Promise<Usage> =>
      api
        .GET('/api/v1/orgs/{orgId}/analytics/usage', {
          params: { path: { orgId }, query: { appId: appId ?? undefined, days } },
          signal,
        })
        .then(unwrap),
  })
