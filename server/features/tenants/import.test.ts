/**
 * Organisation import end to end through the real app (issue 27): an exported archive comes
 * back as a new organisation owned by the importer, with new ids, its files and its counts;
 * a hostile or damaged archive, or a row the database refuses late in a file, ends the job
 * with its problem and leaves no organisation, row or file behind.
 */
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { zipSync } from 'fflate'
import { eq } from 'drizzle-orm'
import {
  buildTestApp,
  signedInMember,
  signedInWithRole,
  type TestApp,
  type TestMember,
} from '../../test/test-app'
import { uploadDocument } from '../../test/document-uploads'
import { SAMPLE_CONTRACT } from '../../test/sample-files'
import { finishedJob } from '../../test/finished-job'
import { ndjson, readZip } from '../../test/read-zip'
import { organization } from '../../db/schema'
import { orgBlobPrefix } from '../../blob/blob-keys'
import { createFsBlobStore } from '../../blob/fs-blob-store'
import type { BlobStore } from '../../blob/blob-store'
import { sql } from 'drizzle-orm'
import { importArchive, type ImportDeps } from './import-job'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

const orgUrl = (m: TestMember) => `/api/v1/orgs/${m.orgId}`

/** The export of `m`'s organisation, with a document and two entities, as ZIP bytes. */
async function exportedArchive(m: TestMember): Promise<Buffer> {
  const doc = await uploadDocument(t, m, new TextEncoder().encode(SAMPLE_CONTRACT), 'nda.txt')
  expect(doc.statusCode, doc.body).toBe(201)
  for (const name of ['Client A', 'Client B'])
    await t.app.inject({
      method: 'POST',
      url: `${orgUrl(m)}/entities`,
      headers: m.headers,
      payload: { name, type: 'client', data: { name } },
    })
  const started = await t.app.inject({
    method: 'POST',
    url: `${orgUrl(m)}/export`,
    headers: m.headers,
    payload: {},
  })
  const job = await finishedJob(t, m, started.json().id)
  expect(job.status, job.error ?? '').toBe('succeeded')
  const file = await t.app.inject({
    url: `${orgUrl(m)}/exports/${started.json().id}/file`,
    headers: m.headers,
  })
  return file.rawPayload
}

/** Uploads `zip` as a new organisation named `name`; resolves to the finished job. */
async function imported(m: TestMember, zip: Uint8Array, name: string) {
  const form = new FormData()
  form.append('create_org_if_missing', 'true')
  form.append('org_name', name)
  form.append('zip_file', new Blob([zip as Uint8Array<ArrayBuffer>]), 'org.zip')
  const started = await t.app.inject({
    method: 'POST',
    url: `${orgUrl(m)}/import`,
    headers: m.headers,
    payload: form,
  })
  expect(started.statusCode, started.body).toBe(202)
  return finishedJob(t, m, started.json().id)
}

/** `entries` zipped again with a manifest whose checksums match (a consistent archive). */
function rezipped(entries: Map<string, Buffer>, change: (name: string, b: Buffer) => Buffer) {
  const manifest = JSON.parse(entries.get('manifest.json')!.toString())
  const files: Record<string, Uint8Array> = {}
  for (const [name, bytes] of entries) {
    if (name === 'manifest.json') continue
    const next = change(name, bytes)
    files[name] = next
    manifest.entries[name] = createHash('sha256').update(next).digest('hex')
  }
  files['manifest.json'] = new TextEncoder().encode(JSON.stringify(manifest))
  return zipSync(files)
}

const orgsNamed = (name: string) =>
  t.database.db.select().from(organization).where(eq(organization.name, name))

async function filesUnder(orgId: string): Promise<number> {
  let n = 0
  for await (const _ of createFsBlobStore(t.blobDir).list(orgBlobPrefix(orgId))) n += 1
  return n
}

describe('organisation import', () => {
  it("answers the spec's messages for a missing file or target, and 403 to a non-owner, keeping no upload", async () => {
    const owner = await signedInMember(t, 'Import Form')
    const send = async (m: TestMember, fields: Record<string, string>, file: boolean) => {
      const form = new FormData()
      for (const [k, v] of Object.entries(fields)) form.append(k, v)
      if (file) form.append('zip_file', new Blob([new Uint8Array([80, 75])]), 'a.zip')
      return t.app.inject({
        method: 'POST',
        url: `${orgUrl(m)}/import`,
        headers: m.headers,
        payload: form,
      })
    }
    const noFile = await send(owner, { create_org_if_missing: 'true', org_name: 'X' }, false)
    expect(noFile.statusCode).toBe(400)
    expect(noFile.json().detail).toBe('Select a ZIP file')
    const noTarget = await send(owner, {}, true)
    expect(noTarget.statusCode).toBe(400)
    expect(noTarget.json().detail).toBe('Provide target_org_id or enable create new org')
    expect(await filesUnder(owner.orgId)).toBe(0)
    const admin = await signedInWithRole(t, owner.orgId, 'admin')
    const refused = await send(admin, { create_org_if_missing: 'true', org_name: 'X' }, true)
    expect(refused.statusCode).toBe(403)
  })

  it('imports an export as a new organisation owned by the importer, with new ids and its files', async () => {
    const owner = await signedInMember(t, 'Import Source')
    const zip = await exportedArchive(owner)
    const job = await imported(owner, zip, 'Imported Copy')
    expect(job.status, job.error ?? '').toBe('succeeded')
    const result = job.result as { orgId: string; counts: Record<string, number> }
    expect(result.counts).toMatchObject({ documents: 1, entities: 2 })
    const [org] = await orgsNamed('Imported Copy')
    expect(org!.id).toBe(result.orgId)
    expect(org!.metadata).toBeNull()

    const headers = owner.headers
    const docs = await t.app.inject({ url: `/api/v1/orgs/${result.orgId}/documents`, headers })
    expect(docs.statusCode, docs.body).toBe(200)
    const [doc] = docs.json().items ?? docs.json()
    const source = ndjson((await readZip(zip)).get('tables/documents.ndjson'))[0]!
    expect(doc.id).not.toBe(source.id)
    const original = await t.app.inject({
      url: `/api/v1/orgs/${result.orgId}/documents/${doc.id}/file`,
      headers,
    })
    expect(original.statusCode, original.body).toBe(200)
    expect(original.body).toBe(SAMPLE_CONTRACT)
  })

  it('refuses a row the database rejects late in a file, by entry and line, and leaves nothing', async () => {
    const owner = await signedInMember(t, 'Import Bad Row')
    const entries = await readZip(await exportedArchive(owner))
    const zip = rezipped(entries, (name, bytes) =>
      name === 'tables/entities.ndjson'
        ? Buffer.from(
            bytes
              .toString()
              .replace(/"type": ?"client"(?![\s\S]*"type": ?"client")/, '"type": null'),
          )
        : bytes,
    )
    const job = await imported(owner, zip, 'Never Published')
    expect(job.status).toBe('failed')
    expect(job.error).toMatch(/tables\/entities\.ndjson line 2/)
    expect(await orgsNamed('Never Published')).toHaveLength(0)
  })

  it('refuses an archive whose entry does not match its checksum, writing nothing', async () => {
    const owner = await signedInMember(t, 'Import Tampered')
    const entries = await readZip(await exportedArchive(owner))
    const files: Record<string, Uint8Array> = {}
    for (const [name, bytes] of entries)
      files[name] = name === 'tables/entities.ndjson' ? Buffer.from(`${bytes}\n`) : bytes
    const job = await imported(owner, zipSync(files), 'Tampered Copy')
    expect(job.status).toBe('failed')
    expect(job.error).toMatch(/checksum/)
    expect(await orgsNamed('Tampered Copy')).toHaveLength(0)
  })

  it('sweeps the staging organisation, rows and files when the store fails mid-import', async () => {
    const owner = await signedInMember(t, 'Import Store Fails')
    const zip = await exportedArchive(owner)
    const store = createFsBlobStore(t.blobDir)
    const blobKey = `orgs/${owner.orgId}/imports/${crypto.randomUUID()}.zip`
    await store.putStream(blobKey, [zip], 'application/zip')
    const staged: string[] = []
    // The store is full when the document's original is written, after the rows before it.
    const full: BlobStore = {
      ...store,
      async putStream(key, source, type) {
        if (!key.startsWith(`orgs/${owner.orgId}/`)) {
          staged.push(key)
          await store.putStream(key, [Buffer.from('partial')], type)
          throw new Error('ENOSPC: no space left on device')
        }
        return store.putStream(key, source, type)
      },
    }
    await expect(
      importArchive(
        deps(full),
        { userId: owner.userId, jobId: crypto.randomUUID() },
        { blobKey, orgName: 'Half Written' },
        quiet,
      ),
    ).rejects.toThrow('ENOSPC')
    expect(staged.length).toBe(1)
    expect(await orgsNamed('Half Written')).toHaveLength(0)
    const stagingOrg = staged[0]!.split('/')[1]!
    expect(await filesUnder(stagingOrg)).toBe(0)
    const rows = await t.database.db.execute(
      sql`SELECT count(*)::int AS n FROM documents WHERE org_id = ${stagingOrg}`,
    )
    expect((rows as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(0)
  })

  it('a retry after a crash sweeps what the interrupted attempt staged, then imports', async () => {
    const owner = await signedInMember(t, 'Import Crash')
    const zip = await exportedArchive(owner)
    const store = createFsBlobStore(t.blobDir)
    const blobKey = `orgs/${owner.orgId}/imports/${crypto.randomUUID()}.zip`
    await store.putStream(blobKey, [zip], 'application/zip')
    const jobId = crypto.randomUUID()
    queued.length = 0
    // What a process killed mid-import leaves: the hidden organisation, a row, a file.
    const leftover = crypto.randomUUID()
    await t.database.db.insert(organization).values({
      id: leftover,
      name: 'Crashed Copy',
      slug: `crashed-${leftover}`,
      metadata: JSON.stringify({ importJobId: jobId }),
    })
    await store.putStream(`orgs/${leftover}/documents/x/original`, [Buffer.from('x')], 'text/plain')
    const result = await importArchive(
      deps(store),
      { userId: owner.userId, jobId },
      { blobKey, orgName: 'Crashed Copy' },
      quiet,
    )
    const orgs = await orgsNamed('Crashed Copy')
    expect(orgs.map((o) => o.id)).toEqual([result.orgId])
    expect(await filesUnder(leftover)).toBe(0)
    expect(result.counts).toMatchObject({ documents: 1, entities: 2 })
    // No embeddings in the archive: the imported document is queued for indexing.
    expect(queued.filter((q) => q.kind === 'document-chunks')).toHaveLength(1)
  })
})

const quiet = { signal: new AbortController().signal, progress: () => undefined }

/** Jobs queued by importArchive in these tests: kind and input. */
const queued: { kind: string; input: unknown }[] = []

/** importArchive's dependencies over `blobs`, recording what it queues. */
function deps(blobs: BlobStore): ImportDeps {
  return {
    db: t.database.db,
    blobs,
    engines: { embedder: { id: 'none' } },
    limits: { importMaxBytes: 1e9 },
    jobs: {
      enqueue: (async (_tx: unknown, _principal: unknown, kind: string, input: unknown) => {
        queued.push({ kind, input })
        return { id: crypto.randomUUID() }
      }) as unknown as ImportDeps['jobs']['enqueue'],
    },
  }
}
