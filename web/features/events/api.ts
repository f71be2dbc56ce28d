/** Event log data access: the newest events of an org (limit 100), optionally of one kind. */
import { queryOptions } from '@tanstack/react-query'
import { api, unwrap } from '../../lib/api'
import type { components } from '../../lib/api-schema'

export type OrgEvent = components['schemas']['Event']

/** The org's newest 100 events (of `kind`, or all when empty) and the kinds it has. */
export const eventsQuery = (orgId: string, kind: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'events', { kind }] as const,
    queryFn: ({ signal }): Promise<{ items: OrgEvent[]; total: number; kinds: string[] }> =>
      api
        .GET('/api/v1/orgs/{orgId}/events', {
          params: { path: { orgId }, query: { kind: kind || undefined, limit: 100 } },
          signal,
        })
        .then(unwrap),
  })
