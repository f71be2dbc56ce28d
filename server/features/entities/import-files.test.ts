import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, signedInMember, type TestApp, type TestMember } from '../../test/test-app'
import { createFsBlobStore } from '../../blob/fs-blob-store'
import { removeOrphanFiles } from '../../blob/orphan-files'
import { jobs } from '../../db/schema'
import { withTenant, type Principal } from '../../db/tenant'
import { insertJob } from '../../jobs/job-service'
import { IMPORT_JOB_KIND } from './import-csv'
import { importFiles } from './import-files'

let t: TestApp
let alice: TestMember
let blobDir: string

beforeAll(async () => {
  t = await buildTestApp()
  alice = await signedInMember(t)
  blobDir = await mkdtemp(path.join(os.tmpdir(), 'lexdesk-reconcile-imports-'))
})
afterAll(async () => {
  await t.close()
  await rm(blobDir, { recursive: true, force: true })
})

/** Queues an import job (a CSV import unless `kind` says) naming `blobKey`, with `status`. */
async function importJob(blobKey: string, status: string, kind: string = IMPORT_JOB_KIND) {
  const principal: Principal = {
    orgId: alice.orgId,
    userId: alice.userId,
    role: 'admin',
    actorType: 'user',
  }
  await withTenant(t.database.db, principal, async (tx) => {
    const job = await insertJob(tx, principal, {
      kind,
      input:
        kind === IMPORT_JOB_KIND
          ? { blobKey, fileName: 'clients.csv', size: 1, appId: null }
          : { blobKey, orgName: 'Restored firm' },
    })
    // Not before an hour: the test app's job runner must not claim and run it meanwhile.
    const runAfter = new Date(Date.now() + 3_600_000)
    await tx.update(jobs).set({ status, runAfter }).where(eq(jobs.id, job.id))
  })
}

describe('removeOrphanFiles with importFiles', () => {
  it('keeps the files of queued and running imports and removes those whose job has ended or is gone', async () => {
    const blobs = createFsBlobStore(blobDir)
    const key = (name: string) => `orgs/${alice.orgId}/imports/${name}.csv`
    const [queued, running, failed, cancelled, jobless] = [
      'queued',
      'running',
      'failed',
      'cancelled',
      'jobless',
    ].map(key)
    for (const file of [queued, running, failed, cancelled, jobless])
      await blobs.putStream(file!, [new TextEncoder().encode('name\nAcme\n')], 'text/csv')
    await importJob(queued!, 'queued')
    await importJob(running!, 'running')
    await importJob(failed!, 'failed')
    await importJob(cancelled!, 'cancelled')
    const warnings: unknown[][] = []
    const log = { warn: (...args: unknown[]) => void warnings.push(args) }

    expect(await removeOrphanFiles({ db: t.database.db, blobs }, log, [importFiles], 0)).toBe(3)
    for (const gone of [failed, cancelled, jobless]) expect(await blobs.head(gone!)).toBeNull()
    for (const kept of [queued, running]) expect(await blobs.head(kept!)).not.toBeNull()
    expect(warnings).toEqual([[{ removed: 3 }, expect.stringMatching(/^removed import files/)]])
  })

  it("keeps an organisation archive waiting for its queued 'tenant-import' job", async () => {
    const blobs = createFsBlobStore(blobDir)
    const archive = `orgs/${alice.orgId}/imports/waiting.zip`
    await blobs.putStream(archive, [new Uint8Array([80, 75, 5, 6])], 'application/zip')
    await importJob(archive, 'queued', 'tenant-import')
    const log = { warn: () => undefined }

    await removeOrphanFiles({ db: t.database.db, blobs }, log, [importFiles], 0)
    expect(await blobs.head(archive)).not.toBeNull()
  })
})
