/** Entities data access: the list query factory and the write calls, keyed under the org. */
import { keepPreviousData, queryOptions } from '@tanstack/react-query'
import { api, unwrap } from '../../../lib/api'
import { uploadWithProgress } from '../../../hooks/upload-with-progress'
import type { components } from '../../../lib/api-schema'

export type Entity = components['schemas']['Entity']

/** A page of entities and the number matching across all pages. */
export interface EntityPage {
  items: Entity[]
  total: number
}

/** What the table asks for: filters, sort (`key:dir,…`) and the page. */
export interface EntityListParams {
  /** The one entity a link names (`?entity=`), else null. */
  id: string | null
  q: string
  type: string
  appId: string | null
  sort: string
  page: number
  pageSize: number
}

/** Prefix of every entities query of an org (invalidate it after a write). */
export function entitiesKey(orgId: string) {
  return ['orgs', orgId, 'entities'] as const
}

/** One page of entities with the exact total. */
export const entityListQuery = (orgId: string, p: EntityListParams) =>
  queryOptions({
    queryKey: [...entitiesKey(orgId), 'list', p] as const,
    queryFn: ({ signal }): Promise<EntityPage> =>
      api
        .GET('/api/v1/orgs/{orgId}/entities', {
          params: {
            path: { orgId },
            query: {
              id: p.id ?? undefined,
              q: p.q.trim() || undefined,
              type: p.type.trim() || undefined,
              appId: p.appId ?? undefined,
              sort: p.sort || undefined,
              limit: p.pageSize,
              offset: (p.page - 1) * p.pageSize,
            },
          },
          signal,
        })
        .then(unwrap),
    placeholderData: keepPreviousData,
  })

export function createEntity(
  orgId: string,
  body: { name: string; type: string; data: Record<string, unknown>; appId?: string },
): Promise<Entity> {
  return api
    .POST('/api/v1/orgs/{orgId}/entities', { params: { path: { orgId } }, body })
    .then(unwrap)
}

export function updateEntity(
  orgId: string,
  entityId: string,
  body: { name?: string; type?: string; data?: Record<string, unknown> },
): Promise<Entity> {
  return api
    .PATCH('/api/v1/orgs/{orgId}/entities/{entityId}', {
      params: { path: { orgId, entityId } },
      body,
    })
    .then(unwrap)
}

export function deleteEntity(orgId: string, entityId: string): Promise<void> {
  return api
    .DELETE('/api/v1/orgs/{orgId}/entities/{entityId}', { params: { path: { orgId, entityId } } })
    .then(unwrap)
}

export function deleteEntities(orgId: string, ids: string[]): Promise<{ deleted: number }> {
  return api
    .POST('/api/v1/orgs/{orgId}/entities/bulk-delete', {
      params: { path: { orgId } },
      body: { ids },
    })
    .then(unwrap)
}

/** Same-origin URL of the CSV export of the entities matching the filters (session cookie). */
export function exportUrl(
  orgId: string,
  filters: Pick<EntityListParams, 'id' | 'q' | 'type' | 'appId'>,
) {
  const query = new URLSearchParams()
  if (filters.id) query.set('id', filters.id)
  if (filters.q.trim()) query.set('q', filters.q.trim())
  if (filters.type.trim()) query.set('type', filters.type.trim())
  if (filters.appId) query.set('appId', filters.appId)
  const suffix = query.size > 0 ? `?${query.toString()}` : ''
  return `/api/v1/orgs/${encodeURIComponent(orgId)}/entities/export${suffix}`
}

/** Largest import file (the importEntities operation), in bytes: 100 MB. */
const MAX_IMPORT_BYTES = 100 * 1024 * 1024

/**
 * Uploads a CSV file for import into `appId` (null: organisation-wide); resolves to the import
 * job (202). Rejects with `ApiError` (code `forbidden` below admin, `file_too_large`, `empty_csv`).
 */
export function importEntities(orgId: string, file: File, appId: string | null) {
  const query = appId ? `?appId=${encodeURIComponent(appId)}` : ''
  return uploadWithProgress('importEntities', {
    url: `/api/v1/orgs/${encodeURIComponent(orgId)}/entities/import${query}`,
    file,
    fileName: file.name,
    maxBytes: MAX_IMPORT_BYTES,
  })
}
