/**
 * Storage buckets' and objects' data access (issue 24, decision 0055): list and create buckets,
 * list objects by prefix a page at a time, upload with progress, sign a link, delete.
 */
import { queryOptions } from '@tanstack/react-query'
import { api, unwrap } from '../../lib/api'
import type { components } from '../../lib/api-schema'
import { uploadWithProgress } from '../../hooks/upload-with-progress'

export type StorageBucket = components['schemas']['StorageBucket']
export type StorageObject = components['schemas']['StorageObject']

/** The organisation's buckets by name. Key `['orgs', orgId, 'buckets']`. */
export const bucketsQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'buckets'] as const,
    queryFn: ({ signal }) =>
      api
        .GET('/api/v1/orgs/{orgId}/storage/buckets', { params: { path: { orgId } }, signal })
        .then(unwrap),
  })

/** One page (100) of a bucket's objects under `prefix`, after `cursor` (null: the first). */
export const objectsQuery = (
  orgId: string,
  bucketId: string,
  prefix: string,
  cursor: string | null,
) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'buckets', bucketId, 'objects', prefix, cursor] as const,
    queryFn: ({ signal }) =>
      api
        .GET('/api/v1/orgs/{orgId}/storage/buckets/{bucketId}/objects', {
          params: {
            path: { orgId, bucketId },
            query: { prefix, ...(cursor === null ? {} : { cursor }) },
          },
          signal,
        })
        .then(unwrap),
  })

/** Creates bucket `name` (public or not). */
export function createBucket(orgId: string, name: string, isPublic: boolean) {
  return api
    .POST('/api/v1/orgs/{orgId}/storage/buckets', {
      params: { path: { orgId } },
      body: { name, public: isPublic },
    })
    .then(unwrap)
}

/** Deletes bucket `bucketId` with its objects. */
export function deleteBucket(orgId: string, bucketId: string) {
  return api
    .DELETE('/api/v1/orgs/{orgId}/storage/buckets/{bucketId}', {
      params: { path: { orgId, bucketId } },
    })
    .then(unwrap)
}

/**
 * Uploads `file` into the bucket under `prefix`, replacing an object of the same name;
 * `onProgress` gets the fraction sent (0–1).
 */
export function uploadObject(
  orgId: string,
  bucketId: string,
  file: File,
  prefix: string,
  onProgress: (fraction: number) => void,
) {
  return uploadWithProgress('uploadObject', {
    url: `/api/v1/orgs/${encodeURIComponent(orgId)}/storage/buckets/${bucketId}/objects`,
    file,
    fileName: file.name,
    fields: { prefix },
    // The limit is the organisation's quota, which only the server knows: it answers the 413.
    maxBytes: Number.MAX_SAFE_INTEGER,
    onProgress,
  })
}

/** A link downloading object `objectId` for an hour (the server's default). */
export function signObjectUrl(orgId: string, objectId: string) {
  return api
    .POST('/api/v1/orgs/{orgId}/storage/objects/{objectId}/signed-url', {
      params: { path: { orgId, objectId } },
      body: {},
    })
    .then(unwrap)
}

/** Deletes object `objectId`. */
export function deleteObject(orgId: string, objectId: string) {
  return api
    .DELETE('/api/v1/orgs/{orgId}/storage/objects/{objectId}', {
      params: { path: { orgId, objectId } },
    })
    .then(unwrap)
}
