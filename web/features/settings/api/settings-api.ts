/**
 * Data management calls (issue 27): start an export of the organisation, the URL of a finished
 * export's archive (a plain link: the browser downloads it with the session cookie), upload an
 * archive to import, and start a clone.
 */
import { api, unwrap } from '../../../lib/api'
import { uploadWithProgress } from '../../../hooks/upload-with-progress'

/** Queues the export of organisation `orgId`; resolves to its job. */
export function startExport(orgId: string, includeEmbeddings: boolean) {
  return api
    .POST('/api/v1/orgs/{orgId}/export', {
      params: { path: { orgId } },
      body: { includeEmbeddings },
    })
    .then(unwrap)
}

/** Where the archive of export job `jobId` is downloaded. */
export function exportArchiveUrl(orgId: string, jobId: string): string {
  return `/api/v1/orgs/${encodeURIComponent(orgId)}/exports/${encodeURIComponent(jobId)}/file`
}

/**
 * The server's default cap on an imported archive (IMPORT_MAX_BYTES, 20 GiB): a larger file is
 * refused before it is sent; a server configured lower answers 413 itself.
 */
const IMPORT_MAX_BYTES = 20 * 1024 ** 3

/** Where an archive goes: a new organisation named `orgName`, or the organisation `targetOrgId`. */
export type ImportTarget = { orgName: string } | { targetOrgId: string }

/**
 * Uploads `archive` through organisation `orgId` (spec section 7's fields: `zip_file`,
 * `create_org_if_missing` and `org_name`, or `target_org_id`), reporting the fraction sent;
 * resolves to the import job. Rejects with ApiError.
 */
export function startImport(
  orgId: string,
  archive: File,
  target: ImportTarget,
  onProgress: (fraction: number) => void,
) {
  return uploadWithProgress('importOrganization', {
    url: `/api/v1/orgs/${encodeURIComponent(orgId)}/import`,
    file: archive,
    fileField: 'zip_file',
    fileName: archive.name,
    fields:
      'orgName' in target
        ? { create_org_if_missing: 'true', org_name: target.orgName }
        : { target_org_id: target.targetOrgId },
    maxBytes: IMPORT_MAX_BYTES,
    onProgress,
  })
}

/** Queues the clone of organisation `orgId` into a new one named `name`; resolves to its job. */
export function startClone(orgId: string, name: string, cloneBuckets: boolean) {
  return api
    .POST('/api/v1/orgs/{orgId}/clone', {
      params: { path: { orgId } },
      body: { source_org_id: orgId, target_org_name: name, clone_buckets: cloneBuckets },
    })
    .then(unwrap)
}
