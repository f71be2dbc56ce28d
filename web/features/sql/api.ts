/** SQL runner data access: run a query, download its CSV, and the caller's last queries. */
import { queryOptions } from '@tanstack/react-query'
import { api, unwrap } from '../../lib/api'
import type { components } from '../../lib/api-schema'

export type SqlResult = components['schemas']['SqlResult']
export type SqlHistoryEntry = components['schemas']['SqlHistoryEntry']

/**
 * The caller's last 20 queries in the organisation, newest first, and the views a query may
 * read (403 for members).
 */
export const sqlHistoryQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'sql', 'history'] as const,
    queryFn: ({ signal }) =>
      api
        .GET('/api/v1/orgs/{orgId}/sql/history', { params: { path: { orgId } }, signal })
        .then(unwrap),
  })

/** Runs `sql` in the organisation; throws ApiError with the server's words when refused. */
export function runSql(orgId: string, sql: string): Promise<SqlResult> {
  return api
    .POST('/api/v1/orgs/{orgId}/sql', { params: { path: { orgId } }, body: { sql } })
    .then(unwrap)
}

/** Runs `sql` again and answers its rows as the server's CSV file. */
export function fetchSqlCsv(orgId: string, sql: string): Promise<Blob> {
  return api
    .POST('/api/v1/orgs/{orgId}/sql/csv', {
      params: { path: { orgId } },
      body: { sql },
      parseAs: 'blob',
    })
    .then(unwrap)
}
