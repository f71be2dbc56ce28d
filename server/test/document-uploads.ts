/**
 * Document-upload helpers for API tests: send a file to the documents route, and count what the
 * server stored (document rows and files on disk), so a refused upload can be shown to leave
 * nothing behind.
 */
import { readdir } from 'node:fs/promises'
import { documents } from '../db/schema'
import { uploadForm } from './sample-files'
import type { TestApp, TestMember } from './test-app'

/** POSTs `bytes` as the multipart file `fileName` to `member`'s organisation's documents. */
export function uploadDocument(
  t: TestApp,
  member: TestMember,
  bytes: Uint8Array,
  fileName: string,
) {
  return t.app.inject({
    method: 'POST',
    url: `/api/v1/orgs/${member.orgId}/documents`,
    headers: member.headers,
    payload: uploadForm(bytes, fileName),
  })
}

/** How many document rows (every organisation) and files under the blob dir `t` holds. */
export async function storedDocuments(t: TestApp): Promise<{ rows: number; files: number }> {
  const files = (await readdir(t.blobDir, { recursive: true, withFileTypes: true })).filter((e) =>
    e.isFile(),
  )
  return { rows: (await t.database.db.select().from(documents)).length, files: files.length }
}
