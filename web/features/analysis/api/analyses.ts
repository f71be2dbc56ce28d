/** Analysis data access: TanStack query factories and the create call, keyed under the org. */
import { queryOptions } from '@tanstack/react-query'
import { api, unwrap } from '../../../lib/api'
import type { Job } from '../../../hooks/jobs'
import type { Analysis, AnalysisKind, WeActFor } from './types'

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

/**
 * Stores whom the firm acts for in the document (null clears it); the document's analyses then
 * come back with their risks oriented to it. Throws `ApiError` on a non-2xx answer (400
 * `unknown_party` when no analysed party matches).
 */
export function saveWeActFor(
  orgId: string,
  documentId: string,
  weActFor: WeActFor | null,
): Promise<unknown> {
  return api
    .PUT('/api/v1/orgs/{orgId}/documents/{documentId}/we-act-for', {
      params: { path: { orgId, documentId } },
      body: { weActFor },
    })
    .then(unwrap)
}
