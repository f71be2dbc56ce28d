/**
 * Playbook data (issue 46, decision 0153): the organisation's playbooks, one with its versions, a
 * version's positions, the shipped starters, and checks of a document with their results (whose
 * citations index into the document's `content`). Keys start with ['orgs', orgId].
 */
import { queryOptions } from '@tanstack/react-query'
import { api, unwrap } from '../../lib/api'
import type { components } from '../../lib/api-schema'

export type Playbook = components['schemas']['Playbook']
export type PlaybookVersion = components['schemas']['PlaybookVersion']
export type PlaybookCheck = components['schemas']['PlaybookCheck']
export type PositionResult = components['schemas']['PlaybookPositionResult']
export type Position = PlaybookVersion['positions'][number]
export type StarterId = 'mutual-nda' | 'commercial-supply'

export const playbooksKey = (orgId: string) => ['orgs', orgId, 'playbooks'] as const

/** The organisation's playbooks, newest first (first page of 100). */
export const playbookListQuery = (orgId: string) =>
  queryOptions({
    queryKey: [...playbooksKey(orgId), 'list'] as const,
    queryFn: ({ signal }) =>
      api
        .GET('/api/v1/orgs/{orgId}/playbooks', {
          params: { path: { orgId }, query: { limit: 100 } },
          signal,
        })
        .then(unwrap),
  })

/** The shipped starter playbooks. */
export const starterListQuery = (orgId: string) =>
  queryOptions({
    queryKey: [...playbooksKey(orgId), 'starters'] as const,
    queryFn: ({ signal }) =>
      api
        .GET('/api/v1/orgs/{orgId}/playbooks/starters', { params: { path: { orgId } }, signal })
        .then(unwrap),
    staleTime: Infinity,
  })

/** One playbook with its versions (newest first). */
export const playbookQuery = (orgId: string, playbookId: string) =>
  queryOptions({
    queryKey: [...playbooksKey(orgId), playbookId] as const,
    queryFn: ({ signal }) =>
      api
        .GET('/api/v1/orgs/{orgId}/playbooks/{playbookId}', {
          params: { path: { orgId, playbookId } },
          signal,
        })
        .then(unwrap),
  })

/** One version with its positions. */
export const versionQuery = (orgId: string, playbookId: string, version: number) =>
  queryOptions({
    queryKey: [...playbooksKey(orgId), playbookId, 'versions', version] as const,
    queryFn: ({ signal }) =>
      api
        .GET('/api/v1/orgs/{orgId}/playbooks/{playbookId}/versions/{version}', {
          params: { path: { orgId, playbookId, version } },
          signal,
        })
        .then(unwrap),
  })

/** Copies a shipped starter into the organisation. */
export function copyStarter(orgId: string, starter: StarterId) {
  return api
    .POST('/api/v1/orgs/{orgId}/playbooks/starters/{starter}', {
      params: { path: { orgId, starter } },
    })
    .then(unwrap)
}

/** Imports a playbook document (JSON, as exported). */
export function importPlaybook(orgId: string, document: unknown) {
  return api
    .POST('/api/v1/orgs/{orgId}/playbooks/import', {
      params: { path: { orgId } },
      body: document as components['schemas']['PlaybookDocument'],
    })
    .then(unwrap)
}

/** Replaces a draft version's positions. */
export function saveVersion(
  orgId: string,
  playbookId: string,
  version: number,
  positions: unknown,
) {
  return api
    .PUT('/api/v1/orgs/{orgId}/playbooks/{playbookId}/versions/{version}', {
      params: { path: { orgId, playbookId, version } },
      body: { positions: positions as Position[] },
    })
    .then(unwrap)
}

/** A new draft version holding `positions`. */
export function createVersion(orgId: string, playbookId: string, positions: Position[]) {
  return api
    .POST('/api/v1/orgs/{orgId}/playbooks/{playbookId}/versions', {
      params: { path: { orgId, playbookId } },
      body: { positions },
    })
    .then(unwrap)
}

/** Approves a draft version (admins). */
export function approveVersion(orgId: string, playbookId: string, version: number) {
  return api
    .POST('/api/v1/orgs/{orgId}/playbooks/{playbookId}/versions/{version}/approve', {
      params: { path: { orgId, playbookId, version } },
    })
    .then(unwrap)
}

/** Checks a document against a playbook (its current version, or `version`). */
export function checkDocument(
  orgId: string,
  playbookId: string,
  body: { documentId: string; version?: number },
) {
  return api
    .POST('/api/v1/orgs/{orgId}/playbooks/{playbookId}/checks', {
      params: { path: { orgId, playbookId } },
      body,
    })
    .then(unwrap)
}

/** The address of a playbook's export (a JSON playbook document). */
export function exportHref(orgId: string, playbookId: string, version: number): string {
  return `/api/v1/orgs/${encodeURIComponent(orgId)}/playbooks/${encodeURIComponent(playbookId)}/export?version=${version}`
}

/** Documents offered to a check: the documents list's ceiling. */
export const DOCUMENT_LIMIT = 200

/** The documents a check can take (newest DOCUMENT_LIMIT of the app, or of the firm). */
export const checkableDocumentsQuery = (orgId: string, appId: string | null) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'documents', 'checkable', appId] as const,
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

/** A document's title and text (a check's citations index into `content`). */
export const checkedDocumentQuery = (orgId: string, documentId: string) =>
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

/** The address of a check's suggested redlines as a Word document with tracked changes. */
export function checkRedlineHref(orgId: string, playbookId: string, checkId: string): string {
  return `/api/v1/orgs/${encodeURIComponent(orgId)}/playbooks/${encodeURIComponent(playbookId)}/checks/${encodeURIComponent(checkId)}/redline.docx`
}
