/**
 * The organisation jobs of issue 27 (export, import, clone) as tests drive them: started
 * through the API and followed to their end; an export's archive downloaded; a blob store whose
 * disk fills up at a chosen write.
 */
import { expect } from 'vitest'
import type { BlobStore } from '../blob/blob-store'
import { finishedJob, type FinishedJob } from './finished-job'
import type { TestApp, TestMember } from './test-app'

/**
 * Starts `POST /api/v1/orgs/{m.orgId}/{action}` with `payload` (a JSON body or a multipart form)
 * as `m`, expects 202 with a job of `kind`, and waits for the job to end (whatever its status).
 */
export async function finishedOrgJob(
  t: TestApp,
  m: TestMember,
  action: 'export' | 'import' | 'clone',
  payload: Record<string, unknown> | FormData,
): Promise<FinishedJob & { id: string }> {
  const started = await t.app.inject({
    method: 'POST',
    url: `/api/v1/orgs/${m.orgId}/${action}`,
    headers: m.headers,
    payload,
  })
  expect(started.statusCode, started.body).toBe(202)
  expect(started.json().kind).toBe(`tenant-${action}`)
  const id = started.json().id as string
  return { ...(await finishedJob(t, m, id)), id }
}

/** Runs an export of `m`'s organisation (options `body`) to success; resolves to its job and file. */
export async function succeededExport(t: TestApp, m: TestMember, body = {}) {
  const job = await finishedOrgJob(t, m, 'export', body)
  expect(job.status, job.error ?? '').toBe('succeeded')
  const file = await t.app.inject({
    url: `/api/v1/orgs/${m.orgId}/exports/${job.id}/file`,
    headers: m.headers,
  })
  expect(file.statusCode, file.body).toBe(200)
  return { job, file }
}

/**
 * `store` on a disk that fills up: each write whose key `fills` accepts (asked once per write,
 * in order) leaves a partial file and throws ENOSPC, as a full disk does; the others pass.
 */
export function diskFullAt(store: BlobStore, fills: (key: string) => boolean): BlobStore {
  return {
    ...store,
    async putStream(key, source, type) {
      if (fills(key)) {
        await store.putStream(key, [Buffer.from('partial')], type)
        throw new Error('ENOSPC: no space left on device')
      }
      return store.putStream(key, source, type)
    },
  }
}
