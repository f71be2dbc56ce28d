/** Documents data access: TanStack query factories and the paste call, keyed under the org. */
import { keepPreviousData, queryOptions } from '@tanstack/react-query'
import { api, unwrap } from '../../../lib/api'
import type { Job } from '../../../hooks/jobs'
import type { DocumentDetail, DocumentList } from './types'

/**
 * Library filters: `q` matches title or content case-insensitively; `type` 'all' or one type;
 * `appId` one app's documents, or null for the whole organisation's.
 */
export interface DocumentFilters {
  q: string
  type: string
  appId: string | null
}

/** Prefix of every documents query of an org (invalidate it after adding a document). */
export function documentsKey(orgId: string) {
  return ['orgs', orgId, 'documents'] as const
}

/** The library page for `filters`, newest first, with the org's distinct types. */
export const documentListQuery = (orgId: string, filters: DocumentFilters) =>
  queryOptions({
    queryKey: [...documentsKey(orgId), 'list', filters] as const,
    queryFn: ({ signal }): Promise<DocumentList> =>
      api
        .GET('/api/v1/orgs/{orgId}/documents', {
          params: {
            path: { orgId },
            query: {
              q: filters.q.trim() || undefined,
              type: filters.type === 'all' ? undefined : filters.type,
              appId: filters.appId ?? undefined,
            },
          },
          signal,
        })
        .then(unwrap),
    // Keep the old cards on screen while a new search runs instead of flashing a skeleton.
    placeholderData: keepPreviousData,
    // Read again whenever the library opens: the list may have been cached by another screen (the
    // home's assistant picker) before documents were added while no live refresh was listening.
    staleTime: 0,
  })

/** One document with its full text. Throws `ApiError` (404 when missing or another org's). */
export const documentQuery = (orgId: string, documentId: string) =>
  queryOptions({
    queryKey: [...documentsKey(orgId), documentId] as const,
    queryFn: ({ signal }): Promise<DocumentDetail> =>
      api
        .GET('/api/v1/orgs/{orgId}/documents/{documentId}', {
          params: { path: { orgId, documentId } },
          signal,
        })
        .then(unwrap),
  })

/** Stores pasted text as a document and resolves to it (201). */
export function createTextDocument(
  orgId: string,
  body: { title: string; content: string; documentType: string; appId?: string },
): Promise<DocumentDetail> {
  return api
    .POST('/api/v1/orgs/{orgId}/documents/text', { params: { path: { orgId } }, body })
    .then(unwrap)
}

/** URL of the original uploaded file (same origin, so the session cookie authorises it). */
export function documentFileUrl(orgId: string, documentId: string): string {
  return `/api/v1/orgs/${encodeURIComponent(orgId)}/documents/${encodeURIComponent(documentId)}/file`
}

/** Gives a document a new title and resolves to it. Throws `ApiError` (400, 403, 404). */
export function renameDocument(
  orgId: string,
  documentId: string,
  title: string,
): Promise<DocumentDetail> {
  return api
    .PATCH('/api/v1/orgs/{orgId}/documents/{documentId}', {
      params: { path: { orgId, documentId } },
      body: { title },
    })
    .then(unwrap)
}

/**
 * Deletes the documents `ids` in one transaction and resolves to how many went. Throws `ApiError`
 * (403 `not_document_creator` when a member's selection holds someone else's: none deleted).
 */
export function deleteDocuments(orgId: string, ids: string[]): Promise<number> {
  return api
    .POST('/api/v1/orgs/{orgId}/documents/bulk-delete', {
      params: { path: { orgId } },
      body: { ids },
    })
    .then(unwrap)
    .then((result) => result.deleted)
}

/** Deletes one document. Throws `ApiError` (403 `not_document_creator`, 404). */
export function deleteDocument(orgId: string, documentId: string): Promise<void> {
  return api
    .DELETE('/api/v1/orgs/{orgId}/documents/{documentId}', {
      params: { path: { orgId, documentId } },
    })
    .then(unwrap)
    .then(() => undefined)
}

/** URL of page `page` (1-based) of a scan read by OCR, as a PNG (same origin: the cookie authorises it). */
export function documentPageUrl(orgId: string, documentId: string, page: number): string {
  return `/api/v1/orgs/${encodeURIComponent(orgId)}/documents/${encodeURIComponent(documentId)}/pages/${page}`
}

/** Asks the server to read a scan without text by OCR; resolves to its job (202). */
export function startDocumentOcr(orgId: string, documentId: string): Promise<Job> {
  return api
    .POST('/api/v1/orgs/{orgId}/documents/{documentId}/ocr', {
      params: { path: { orgId, documentId } },
    })
    .then(unwrap)
}
