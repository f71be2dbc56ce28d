/**
 * Comparison data (issue 46, decision 0149): the organisation's comparisons, one comparison with
 * its result, the two documents' texts its spans point into, the documents a new comparison can
 * take, and the redlines' addresses. Keys start with ['orgs', orgId].
 */
import { queryOptions } from '@tanstack/react-query'
import { api, unwrap } from '../../lib/api'
import type { components } from '../../lib/api-schema'

export type Comparison = components['schemas']['Comparison']
export type ComparisonSummary = components['schemas']['ComparisonSummary']
export type ComparisonChange = components['schemas']['ComparisonChange']

/** Documents offered to a new comparison: the documents list's ceiling. */
export const DOCUMENT_LIMIT = 200

export const comparisonsKey = (orgId: string) => ['orgs', orgId, 'comparisons'] as const

/** The organisation's comparisons, newest first (first page of 100), without their results. */
export const comparisonListQuery = (orgId: string) =>
  queryOptions({
    queryKey: [...comparisonsKey(orgId), 'list'] as const,
    queryFn: ({ signal }) =>
      api
        .GET('/api/v1/orgs/{orgId}/comparisons', {
          params: { path: { orgId }, query: { limit: 100 } },
          signal,
        })
        .then(unwrap),
  })

/** One comparison with its latest job and, once done, its result. */
export const comparisonQuery = (orgId: string, comparisonId: string) =>
  queryOptions({
    queryKey: [...comparisonsKey(orgId), comparisonId] as const,
    queryFn: ({ signal }) =>
      api
        .GET('/api/v1/orgs/{orgId}/comparisons/{comparisonId}', {
          params: { path: { orgId, comparisonId } },
          signal,
        })
        .then(unwrap),
  })

/** A document's title and text (the spans of a comparison index into `content`). */
export const comparedDocumentQuery = (orgId: string, documentId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'documents', documentId] as const,
    queryFn: ({ signal }) =>
      api
        .GET('/api/v1/orgs/{orgId}/documents/{documentId}', {
          params: { path: { orgId, documentId } },
          signal,
        })
        .then(unwrap),
  })

/** The documents a comparison can take (newest DOCUMENT_LIMIT of the app, or of the firm). */
export const comparableDocumentsQuery = (orgId: string, appId: string | null) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'documents', 'comparable', appId] as const,
    queryFn: ({ signal }) =>
      api
        .GET('/api/v1/orgs/{orgId}/documents', {
          params: {
            path: { orgId },
            query: { limit: DOCUMENT_LIMIT, ...(appId ? { appId } : {}) },
          },
          signal,
        })
        .then(unwrap),
  })

/** Queues a comparison of `baseDocumentId` (earlier) with `revisedDocumentId` (later). */
export function createComparison(
  orgId: string,
  body: { baseDocumentId: string; revisedDocumentId: string },
) {
  return api
    .POST('/api/v1/orgs/{orgId}/comparisons', { params: { path: { orgId } }, body })
    .then(unwrap)
}

/** Deletes a comparison (its creator or an admin). */
export function deleteComparison(orgId: string, comparisonId: string): Promise<void> {
  return api
    .DELETE('/api/v1/orgs/{orgId}/comparisons/{comparisonId}', {
      params: { path: { orgId, comparisonId } },
    })
    .then(unwrap)
    .then(() => undefined)
}

/** The address of a done comparison's redline: the verified DOCX or the HTML page. */
export function redlineHref(orgId: string, comparisonId: string, format: 'docx' | 'html'): string {
  return `/api/v1/orgs/${encodeURIComponent(orgId)}/comparisons/${encodeURIComponent(comparisonId)}/redline.${format}`
}
