/** Analysis data access: TanStack query factories and the create call, keyed under the org. */
import { queryOptions } from '@tanstack/react-query'
import { api, unwrap } from '../../lib/api'
import type { Job } from '../../lib/jobs'
import type { Analysis, AnalysisKind } from './types'

/** Query key prefix of one document's analyses (invalidate it after creating one). */
export function analysesKey(orgId: string, documentId: string) {
  return ['orgs', orgId, 'documents', documentId, 'analyses'] as const
}

/** Previous analyses of a document, newest first. Throws `ApiError` on a non-2xx answer. */
export const analysesQuery = (orgId: string, documentId: string) =>
  queryOptions({
    queryKey: analysesKey(orgId, documentId),
    queryFn: ({ signal }) =>
      api
        .GET('/api/v1/orgs/{orgId}/documents/{documentId}/analyses', {
          params: { path: { orgId, documentId } },
          signal,
        })
        .then(unwrap)
        .then((page): Analysis[] => page.items),
  })

/**
 * Starts an analysis of `kind` as a background job, whatever the document's length (202 with the
 * job; a short one may have ended already). Throws `ApiError` on a non-2xx answer.
 */
export function createAnalysis(
  orgId: string,
  documentId: string,
  kind: AnalysisKind,
): Promise<Job> {
  return api
    .POST('/api/v1/orgs/{orgId}/documents/{documentId}/analyses', {
      params: { path: { orgId, documentId } },
      body: { kind },
    })
    .then(unwrap)
}
