/**
 * Organisation export end to end through the real app (issue 27): the job writes one ZIP with a
 * manifest whose counts and SHA-256 sums match the entries, one NDJSON file per table holding
 * only this organisation's rows, and every stored file byte for byte; owners only.
 */
import { createHash } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, signedInMember, type TestApp, type TestMember } from '../../test/test-app'
import { uploadDocument } from '../../test/document-uploads'
import { uploadForm, SAMPLE_CONTRACT } from '../../test/sample-files'
import { succeededExport } from '../../test/organisation-jobs'
import { ndjson, readZip } from '../../test/read-zip'
import { ManifestSchema } from './archive-format'
import { blobTarget, EXPORT_PAGE, writeExportArchive } from './export-archive'
import { ARCHIVE_OPEN_OPTIONS, checkArchive } from './check-archive'
import yauzl from 'yauzl'
import { exportBlobKey } from './export-job'
import { createFsBlobStore } from '../../blob/fs-blob-store'
import type { BlobStore } from '../../blob/blob-store'
import type { Readable } from 'node:stream'
import { exportToFile } from './export-command'
import { mkdtemp, readFile, readdir } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

const orgUrl = (m: TestMember) => `/api/v1/orgs/${m.orgId}`

/** A document (uploaded file), an entity and a bucket object in `m`'s organisation. */
async function seed(m: TestMember, tag: string) {
  const doc = await uploadDocument(t, m, new TextEncoder().encode(SAMPLE_CONTRACT), `${tag}.txt`)
  expect(doc.statusCode, doc.body).toBe(201)
  const entity = await t.app.inject({
    method: 'POST',
    url: `${orgUrl(m)}/entities`,
    headers: m.headers,
    payload: { name: `Client ${tag}`, type: 'client', data: { tag } },
  })
  expect(entity.statusCode, entity.body).toBe(201)
  const bucket = await t.app.inject({
    method: 'POST',
    url: `${orgUrl(m)}/storage/buckets`,
    headers: m.headers,
    payload: { name: `bucket-${tag}` },
  })
  expect(bucket.statusCode, bucket.body).toBe(201)
  const object = await t.app.inject({
    method: 'POST',
    url: `${orgUrl(m)}/storage/buckets/${bucket.json().id}/objects`,
    headers: m.headers,
    payload: uploadForm(new TextEncoder().encode(`notes of ${tag}`), 'notes.txt'),
  })
  expect(object.statusCode, object.body).toBe(201)
  return { documentId: doc.json().id as string, objectId: object.json().id as string }
}

/**
 * writeExportArchive of `m`'s organisation without embeddings, reading files from `blobs` and
 * writing the archive under `key` of `target`, until `signal` cancels it.
 */
function exportInto(
  blobs: BlobStore,
  target: BlobStore,
  m: TestMember,
  key: string,
  signal: AbortSignal,
  progress: (message: string) => void,
) {
  return writeExportArchive(
    { db: t.database.db, blobs },
    { orgId: m.orgId },
    blobTarget(target, key),
    {
      includeEmbeddings: false,
      embedderId: 'test',
      lexdeskVersion: '0.0.0',
      signal,
      progress,
    },
  )
}

/** Runs an export of `m`'s organisation to the end; resolves to its job and downloaded archive. */
async function exported(m: TestMember, body: Record<string, unknown> = {}) {
  const { job, file } = await succeededExport(t, m, body)
  return { jobId: job.id, job, file, entries: await readZip(file.rawPayload) }
}

describe('organisation export', () => {
  it('writes a manifest whose counts and checksums match every entry of the archive', async () => {
    const owner = await signedInMember(t, 'Export Source')
    const other = await signedInMember(t, 'Export Other')
    const { documentId, objectId } = await seed(owner, 'own')
    await seed(other, 'foreign')

    const { file, entries } = await exported(owner)
    const slug = (
      await t.app.inject({
        url: '/api/auth/organization/get-full-organization',
        headers: owner.headers,
      })
    ).json().slug as string
    const today = new Date().toISOString().slice(0, 10)
    expect(file.headers['content-type']).toBe('application/zip')
    expect(file.headers['content-disposition']).toContain(`lexdesk-${slug}-${today}.zip`)

    const manifest = ManifestSchema.parse(JSON.parse(entries.get('manifest.json')!.toString()))
    expect(manifest).toMatchObject({
      format: 'lexdesk-org-archive',
      version: 1,
      source: { orgId: owner.orgId, name: 'Export Source', slug },
      embeddings: { included: false, embedder: null },
    })
    expect(Object.keys(manifest.entries).sort()).toEqual(
      [...entries.keys()].filter((name) => name !== 'manifest.json').sort(),
    )
    for (const [name, bytes] of entries) {
      if (name === 'manifest.json') continue
      expect(createHash('sha256').update(bytes).digest('hex'), name).toBe(manifest.entries[name])
    }

    // What the server writes, its own import check accepts.
    const zip = await yauzl.fromBufferPromise(file.rawPayload, ARCHIVE_OPEN_OPTIONS)
    const checked = await checkArchive(zip, { maxBytes: 1e9 }).finally(() => zip.close())
    expect(checked.entries.size).toBe(entries.size)

    const members = ndjson(entries.get('tables/members.ndjson'))
    expect(members).toEqual([{ user_id: owner.userId, email: owner.email, role: 'owner' }])
    const docs = ndjson(entries.get('tables/documents.ndjson'))
    expect(docs).toHaveLength(1)
    expect(docs[0]).toMatchObject({ id: documentId, file: `files/documents/${documentId}` })
    expect(docs[0]).not.toHaveProperty('org_id')
    expect(docs[0]).not.toHaveProperty('file_key')
    expect(entries.get(`files/documents/${documentId}`)!.toString()).toBe(SAMPLE_CONTRACT)
    expect(entries.get(`files/objects/${objectId}`)!.toString()).toBe('notes of own')
    const entities = ndjson(entries.get('tables/entities.ndjson'))
    expect(entities.map((e) => e.name)).toEqual(['Client own'])
    // Nothing of the other organisation, in any entry.
    for (const [name, bytes] of entries)
      expect(bytes.toString('latin1'), name).not.toContain('foreign')
    for (const table of ['documents', 'entities', 'storage_buckets', 'storage_objects'])
      expect(manifest.counts[table], table).toBe(1)
    expect(manifest.counts['files/documents']).toBe(1)
    expect(manifest.counts['files/objects']).toBe(1)
    expect(ndjson(entries.get('tables/doc_chunks.ndjson')).every((c) => !('embedding' in c))).toBe(
      true,
    )
  })

  it('keeps passage embeddings only when asked, naming the embedder in the manifest', async () => {
    const owner = await signedInMember(t, 'Export Vectors')
    await seed(owner, 'vec')
    await expect
      .poll(
        async () => {
          const jobs = await t.app.inject({
            url: `${orgUrl(owner)}/jobs?kind=document-passages&status=succeeded`,
            headers: owner.headers,
          })
          return jobs.json().items.length
        },
        { timeout: 20_000 },
      )
      .toBe(1)
    const { entries } = await exported(owner, { includeEmbeddings: true })
    const manifest = ManifestSchema.parse(JSON.parse(entries.get('manifest.json')!.toString()))
    expect(manifest.embeddings.included).toBe(true)
    expect(manifest.embeddings.embedder).toMatch(/\S/)
    const chunks = ndjson(entries.get('tables/doc_chunks.ndjson'))
    expect(chunks.length).toBeGreaterThan(0)
    for (const chunk of chunks) expect(chunk.embedding).toMatch(/^\[-?\d/)
  })

  it("hides another organisation's export and archive behind a 404", async () => {
    const owner = await signedInMember(t, 'Export Roles')
    const stranger = await signedInMember(t, 'Export Stranger')
    const res = await t.app.inject({
      method: 'POST',
      url: `${orgUrl(owner)}/export`,
      headers: stranger.headers,
      payload: {},
    })
    expect(res.statusCode).toBe(404)
    const { jobId } = await exported(owner)
    const foreign = await t.app.inject({
      url: `${orgUrl(stranger)}/exports/${jobId}/file`,
      headers: stranger.headers,
    })
    expect(foreign.statusCode).toBe(404)
    expect(foreign.json().code).toBe('job_not_found')
  })

  it('records the export in the audit log and the event log', async () => {
    const owner = await signedInMember(t, 'Export Audit')
    const { jobId } = await exported(owner)
    const eventsRes = await t.app.inject({ url: `${orgUrl(owner)}/events`, headers: owner.headers })
    const exportedEvents = (
      eventsRes.json().items as { kind: string; meta: { jobId: string } }[]
    ).filter((e) => e.kind === 'org.exported')
    expect(exportedEvents.map((e) => e.meta.jobId)).toEqual([jobId])
    const audit = await t.app.inject({
      url: `${orgUrl(owner)}/audit?action=org.exported`,
      headers: owner.headers,
    })
    expect(audit.statusCode, audit.body).toBe(200)
    expect(JSON.stringify(audit.json())).toContain(jobId)
  })

  it('writes a table of several pages whole, each row once in key order, with the files after it', async () => {
    const owner = await signedInMember(t, 'Export Pages')
    const { documentId } = await seed(owner, 'pages')
    const many = EXPORT_PAGE * 2 + 7
    await t.database.db.execute(sql`insert into entities (org_id, type, name, data)
      select ${owner.orgId}, 'client', 'Paged ' || i, jsonb_build_object('n', i)
      from generate_series(1, ${many}) i`)
    const { entries } = await exported(owner)
    const ids = ndjson(entries.get('tables/entities.ndjson')).map((e) => e.id as string)
    expect(ids).toHaveLength(many + 1)
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids).toEqual([...ids].sort())
    const names = [...entries.keys()]
    expect(names.indexOf(`files/documents/${documentId}`)).toBe(
      names.indexOf('tables/documents.ndjson') + 1,
    )
    expect(names.indexOf('tables/entities.ndjson')).toBeGreaterThan(
      names.indexOf(`files/documents/${documentId}`),
    )
  })

  it('stops at a cancel between tables and leaves no archive behind', async () => {
    const owner = await signedInMember(t, 'Export Cancel')
    await seed(owner, 'cancel')
    const blobs = createFsBlobStore(t.blobDir)
    const key = exportBlobKey(owner.orgId, crypto.randomUUID())
    const cancel = new AbortController()
    const seen: string[] = []
    const run = exportInto(blobs, blobs, owner, key, cancel.signal, (message) => {
      seen.push(message)
      if (message === 'Exported documents') cancel.abort(new Error('cancelled by the test'))
    })
    await expect(run).rejects.toThrow('cancelled by the test')
    expect(seen).toContain('Exported documents')
    expect(await blobs.head(key)).toBeNull()
  })

  it('closes a stored file it opened when a cancel comes before the file is written', async () => {
    const owner = await signedInMember(t, 'Export Cancel Open')
    await seed(owner, 'cancel-open')
    const store = createFsBlobStore(t.blobDir)
    const cancel = new AbortController()
    const opened: Readable[] = []
    const blobs: BlobStore = {
      ...store,
      async getStream(key, range) {
        const found = await store.getStream(key, range)
        if (found) opened.push(found.stream)
        cancel.abort(new Error('cancelled by the test'))
        return found
      },
    }
    const key = exportBlobKey(owner.orgId, crypto.randomUUID())
    const run = exportInto(blobs, store, owner, key, cancel.signal, () => undefined)
    await expect(run).rejects.toThrow('cancelled by the test')
    expect(opened).toHaveLength(1)
    expect(opened[0]!.destroyed).toBe(true)
    expect(await store.head(key)).toBeNull()
  })

  it("exports by slug into a file from the operator's command, and refuses an unknown slug", async () => {
    const owner = await signedInMember(t, 'Export Command')
    const { documentId } = await seed(owner, 'cli')
    const slug = (
      await t.app.inject({
        url: '/api/auth/organization/get-full-organization',
        headers: owner.headers,
      })
    ).json().slug as string
    const dir = await mkdtemp(path.join(os.tmpdir(), 'lexdesk-export-'))
    const deps = { db: t.database.db, blobs: createFsBlobStore(t.blobDir), embedderId: 'test' }
    const out = path.join(dir, 'acme.zip')
    const summary = await exportToFile(deps, { org: slug, out, includeEmbeddings: false })
    const entries = await readZip(await readFile(out))
    expect(summary.counts.documents).toBe(1)
    // The command answers the organisation it exported, which the next command names.
    expect(summary).toMatchObject({ orgId: owner.orgId, slug })
    expect(entries.get(`files/documents/${documentId}`)!.toString()).toBe(SAMPLE_CONTRACT)
    const manifest = ManifestSchema.parse(JSON.parse(entries.get('manifest.json')!.toString()))
    expect(manifest.source.orgId).toBe(owner.orgId)

    const missing = exportToFile(deps, {
      org: 'no-such-org',
      out: path.join(dir, 'none.zip'),
      includeEmbeddings: false,
    })
    await expect(missing).rejects.toMatchObject({ code: 'organization_not_found' })
    expect(await readdir(dir)).toEqual(['acme.zip'])
  })
})
