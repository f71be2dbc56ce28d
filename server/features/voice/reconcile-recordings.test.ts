import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, signedInMember, type TestApp, type TestMember } from '../../test/test-app'
import { createFsBlobStore } from '../../blob/fs-blob-store'
import { withTenant } from '../../db/tenant'
import { recordings } from '../../db/schema'
import { removeOrphanFiles } from '../../blob/orphan-files'
import { recordingFiles } from './reconcile-recordings'

let t: TestApp
let alice: TestMember
let blobDir: string

beforeAll(async () => {
  t = await buildTestApp()
  alice = await signedInMember(t)
  blobDir = await mkdtemp(path.join(os.tmpdir(), 'lexdesk-reconcile-voice-'))
})
afterAll(async () => {
  await t.close()
  await rm(blobDir, { recursive: true, force: true })
})

describe('removeOrphanFiles with recordingFiles', () => {
  it('removes recording files without a row and keeps those with one', async () => {
    const blobs = createFsBlobStore(blobDir)
    const folder = `orgs/${alice.orgId}/voice-recordings/${alice.userId}`
    const kept = `${folder}/1000.webm`
    const orphan = `${folder}/2000.webm`
    const otherFile = `orgs/${alice.orgId}/documents/x/original`
    for (const key of [kept, orphan, otherFile])
      await blobs.putStream(key, [new Uint8Array([1])], 'audio/webm')
    await withTenant(t.database.db, alice, (tx) =>
      tx.insert(recordings).values({
        orgId: alice.orgId,
        title: 'Memo',
        fileKey: kept,
        mimeType: 'audio/webm',
        sizeBytes: 1,
        createdBy: alice.userId,
      }),
    )
    const warnings: unknown[] = []
    const log = { warn: (...args: unknown[]) => warnings.push(args) }
    expect(await removeOrphanFiles({ db: t.database.db, blobs }, log, [recordingFiles], 0)).toBe(1)
    expect(await blobs.head(orphan)).toBeNull()
    expect(await blobs.head(kept)).not.toBeNull()
    expect(await blobs.head(otherFile)).not.toBeNull()
    expect(warnings).toHaveLength(1)
    // Young files are left alone: another process may be about to write their row.
    await blobs.putStream(orphan, [new Uint8Array([1])], 'audio/webm')
    expect(
      await removeOrphanFiles({ db: t.database.db, blobs }, log, [recordingFiles], 60_000),
    ).toBe(0)
  })
})
