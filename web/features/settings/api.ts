/**
 * Data management calls (issue 27): start an export of the organisation, and the URL of a
 * finished export's archive (a plain link: the browser downloads it with the session cookie).
 */
import { api, unwrap } from '../../lib/api'

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
