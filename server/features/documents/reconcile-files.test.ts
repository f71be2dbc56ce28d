import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { buildTestApp, signedInMember, type TestApp } from '../../test/test-app'
import { createFsBlobStore } from '../../blob/fs-blob-store'
import type { Principal } from '../../db/tenant'
import { getDocumentFile } from './service'
import {
  createDocument,
  documentFileKey,
  documentFolder,
  type DocumentDeps,
} from '../../documents/document-writes'
import { removeOrphanFiles } from '../../blob/orphan-files'
import {
  CLEAN_STOP_KEY,
  FULL_WALK_EVERY_MS,
  recordCleanStop,
  walkUnlessCleanStop,
} from '../../blob/orphan-walk'
import { readBlob } from '../../blob/read-blob'
import { documentFiles } from './reconcile-files'
import { queueOnlyJobRunner } from '../../test/queue-only-job-runner'

let t: TestApp
let alice: Principal
let bob: Principal
// Reconciliation scans the whole store, so each test gets its own blob directory (one test's
// leftovers cannot change another's count); the database and its organisations are shared.
let blobDir: string
let deps: DocumentDeps

const owner = (orgId: string, userId: string): Principal => ({
  orgId,
  userId,
  role: 'owner',
  actorType: 'user',
})

beforeAll(async () => {
  t = await buildTestApp()
  const a = await signedInMember(t, 'Alice Firm')
  const b = await signedInMember(t, 'Bob Firm')
  alice = owner(a.orgId, a.userId)
  bob = owner(b.orgId, b.userId)
})
afterAll(() => t.close())
beforeEach(async () => {
  blobDir = await mkdtemp(path.join(os.tmpdir(), 'lexdesk-reconcile-'))
  deps = {
    db: t.database.db,
    blobs: createFsBlobStore(blobDir),
    jobs: queueOnlyJobRunner(t.database.db),
  }
})
afterEach(() => rm(blobDir, { recursive: true, force: true }))

const HOUR_MS = 60 * 60_000

interface LogCall {
  level: 'info' | 'warn'
  args: unknown[]
}

/** A logger that keeps every call, so tests can read what reconciliation reported. */
function capturingLogger() {
  const calls: LogCall[] = []
  return {
    calls,
    info: (...args: unknown[]) => void calls.push({ level: 'info', args }),
    warn: (...args: unknown[]) => void calls.push({ level: 'warn', args }),
  }
}

const reconcile = (minAgeMs = 0, log = capturingLogger()) =>
  removeOrphanFiles(deps, log, [documentFiles], minAgeMs)

/** The folder on disk of one document. */
const folderPath = (orgId: string, id: string) =>
  path.join(blobDir, ...documentFolder(orgId, id).split('/'))

/** The document ids that have a folder under the org's documents/ in the blob directory. */
async function folderIds(orgId: string): Promise<string[]> {
  const dir = path.join(blobDir, 'orgs', orgId, 'documents')
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => [])
  return entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort()
}

/** Stores a document with a small text file (row and file) and returns its id. */
async function storeDocument(principal: Principal, text: string): Promise<string> {
  const id = crypto.randomUUID()
  const key = documentFileKey(principal.orgId, id)
  const sizeBytes = await deps.blobs.putStream(key, [Buffer.from(text)], 'text/plain')
  const row = await createDocument(deps, principal, {
    id,
    title: 'Note',
    content: text,
    documentType: 'memo',
    file: { key, fileName: 'note.txt', mimeType: 'text/plain', sizeBytes },
  })
  return row.id
}

/** Writes an original under a fresh document id that has no row, as a crash before the insert. */
async function writeOrphan(orgId: string): Promise<string> {
  const id = crypto.randomUUID()
  await deps.blobs.putStream(
    `${documentFolder(orgId, id)}original`,
    [new TextEncoder().encode('x')],
    'text/plain',
  )
  return id
}

/** Sets the modification time of every file in a document folder `ageMs` into the past. */
async function age(orgId: string, id: string, ageMs: number): Promise<void> {
  const dir = folderPath(orgId, id)
  const when = new Date(Date.now() - ageMs)
  for (const name of await readdir(dir)) await utimes(path.join(dir, name), when, when)
}

describe('removeOrphanFiles with documentFiles', () => {
  it('removes a document folder whose id has no row', async () => {
    const orphan = await writeOrphan(alice.orgId)
    expect(await folderIds(alice.orgId)).toEqual([orphan])

    expect(await reconcile()).toBe(1)
    expect(await folderIds(alice.orgId)).toEqual([])
  })

  it('keeps the folder of a real document, whose file stays readable', async () => {
    const id = await storeDocument(alice, 'Engagement letter for Contoso.')
    const orphan = await writeOrphan(alice.orgId)

    expect(await reconcile()).toBe(1)
    const left = await folderIds(alice.orgId)
    expect(left).toEqual([id])
    expect(left).not.toContain(orphan)
    const file = await getDocumentFile(deps, alice, id)
    expect(await readBlob(deps.blobs, file.key, 1000)).toMatchObject({
      data: new TextEncoder().encode('Engagement letter for Contoso.'),
    })
  })

  it("keeps every organisation's real documents (each org is looked up under its own RLS scope)", async () => {
    const aliceDoc = await storeDocument(alice, 'Alice memo')
    const bobDoc = await storeDocument(bob, 'Bob memo')
    const bobOrphan = await writeOrphan(bob.orgId)

    expect(await reconcile()).toBe(1)
    expect(await folderIds(alice.orgId)).toEqual([aliceDoc])
    const bobLeft = await folderIds(bob.orgId)
    expect(bobLeft).toEqual([bobDoc])
    expect(bobLeft).not.toContain(bobOrphan)
  })

  it('removes the temporary and sidecar files an interrupted write left without an object', async () => {
    // A crash after the temporary file and the sidecar were written but before the rename: no
    // `original`, only `original.<uuid>.tmp` and `original.meta.json`.
    const both = folderPath(alice.orgId, crypto.randomUUID())
    await mkdir(both, { recursive: true })
    await writeFile(path.join(both, `original.${crypto.randomUUID()}.tmp`), 'half a file')
    await writeFile(path.join(both, 'original.meta.json'), '{"contentType":"text/plain"}')
    // A crash before even the sidecar was written: only the temporary file.
    const tmpOnly = folderPath(alice.orgId, crypto.randomUUID())
    await mkdir(tmpOnly, { recursive: true })
    await writeFile(path.join(tmpOnly, `original.${crypto.randomUUID()}.tmp`), 'half a file')

    expect(await reconcile()).toBe(2)
    expect(await folderIds(alice.orgId)).toEqual([])
  })

  it('keeps orphan folders written less than minAgeMs ago and removes older ones', async () => {
    const fresh = await writeOrphan(alice.orgId)
    const old = await writeOrphan(alice.orgId)
    await age(alice.orgId, old, 2 * HOUR_MS)

    expect(await reconcile(HOUR_MS)).toBe(1)
    expect(await folderIds(alice.orgId)).toEqual([fresh])
  })

  it('judges a folder by its newest file, so a write still going on keeps it', async () => {
    const id = await writeOrphan(alice.orgId)
    await age(alice.orgId, id, 2 * HOUR_MS)
    await writeFile(
      path.join(folderPath(alice.orgId, id), `original.${crypto.randomUUID()}.tmp`),
      'being written',
    )

    expect(await reconcile(HOUR_MS)).toBe(0)
    expect(await folderIds(alice.orgId)).toEqual([id])
  })

  it('removes folders of an unknown organisation and of ids that are not UUIDs', async () => {
    await writeOrphan('no-such-org')
    await deps.blobs.putStream(
      `${documentFolder(alice.orgId, 'not-a-uuid')}original`,
      [new Uint8Array([1])],
      'text/plain',
    )

    expect(await reconcile()).toBe(2)
    expect(await folderIds('no-such-org')).toEqual([])
    expect(await folderIds(alice.orgId)).toEqual([])
  })

  it('returns the number of folders removed and logs it as a warning', async () => {
    await storeDocument(alice, 'Kept')
    await writeOrphan(alice.orgId)
    await writeOrphan(alice.orgId)
    await writeOrphan(bob.orgId)
    const log = capturingLogger()

    expect(await reconcile(0, log)).toBe(3)
    expect(log.calls).toHaveLength(1)
    expect(log.calls[0]?.level).toBe('warn')
    expect(log.calls[0]?.args[0]).toEqual({ removed: 3 })
    expect(String(log.calls[0]?.args[1])).toMatch(/without a row/)
  })

  it('logs nothing and returns 0 when every folder has its row', async () => {
    await storeDocument(alice, 'Kept')
    await storeDocument(bob, 'Kept too')
    const log = capturingLogger()

    expect(await reconcile(0, log)).toBe(0)
    expect(log.calls).toEqual([])
  })
})

describe('the start-up walk and the clean-stop marker', () => {
  const start = (trustMarker = true, now = new Date()) =>
    walkUnlessCleanStop(deps, capturingLogger(), [documentFiles], { minAgeMs: 0, trustMarker, now })

  it('walks at a start that follows no clean stop (a crash, a first start)', async () => {
    const orphan = await writeOrphan(alice.orgId)
    const outcome = await start()
    expect(outcome.walked).toBe(true)
    expect(await folderIds(alice.orgId)).not.toContain(orphan)
  })

  it('skips the walk after a clean stop, and walks again at the start after a crash', async () => {
    const first = await start()
    await recordCleanStop(deps.blobs, first)
    const orphan = await writeOrphan(alice.orgId)
    const second = await start()
    expect(second).toEqual({ walked: false, lastWalkAt: first.lastWalkAt })
    expect(await folderIds(alice.orgId)).toEqual([orphan])
    // The marker was taken at that start: a crash now leaves none, so the next start walks.
    expect(await deps.blobs.head(CLEAN_STOP_KEY)).toBeNull()
    expect((await start()).walked).toBe(true)
    expect(await folderIds(alice.orgId)).toEqual([])
  })

  it('walks after a clean stop when the last walk is a week old, or the marker is not trusted', async () => {
    const first = await start()
    await recordCleanStop(deps.blobs, first)
    const later = new Date(first.lastWalkAt.getTime() + FULL_WALK_EVERY_MS + 1)
    expect(await start(true, later)).toEqual({ walked: true, lastWalkAt: later })
    await recordCleanStop(deps.blobs, first)
    expect((await start(false)).walked).toBe(true)
  })
})
