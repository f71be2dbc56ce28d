/**
 * Organisation import end to end through the real app (issue 27): an exported archive comes
 * back as a new organisation owned by the importer, with new ids, its files (typed from their
 * bytes, never by the archive's claim) and its counts; a hostile or damaged archive, or a row
 * the database refuses late in a file, ends the job with its problem and leaves no
 * organisation, row or file behind.
 */
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { zipSync } from 'fflate'
import { and, eq } from 'drizzle-orm'
import {
  testAppForFile,
  followLink,
  requestMagicLink,
  TEST_ORIGIN,
  TEST_SECRET,
  uniqueEmail,
  signedInMember,
  signedInWithRole,
  type TestMember,
} from '../../test/test-app'
import { uploadDocument } from '../../test/document-uploads'
import { makeDocx, makePdf, SAMPLE_CONTRACT } from '../../test/sample-files'
import { diskFullAt, finishedOrgJob, succeededExport } from '../../test/organisation-jobs'
import { ndjson, readZip } from '../../test/read-zip'
import { invitation, member, organization, user } from '../../db/schema'
import { createAuth } from '../../auth/auth'
import { createConsoleMailer } from '../../mail/mailer'
import { createLogger } from '../../http/logger'
import { orgBlobPrefix } from '../../blob/blob-keys'
import { createFsBlobStore } from '../../blob/fs-blob-store'
import type { BlobStore } from '../../blob/blob-store'
import { like, sql } from 'drizzle-orm'
import { uploadForm } from '../../test/sample-files'
import { EXPORTED_TABLES } from './archive-format'
import { importArchive, type ImportDeps } from './import-job'
import { MAX_LINE_BYTES } from './import-archive'
import { importFromFile, type ImportCommandDeps } from './import-command'
import { mkdtemp, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

const t = await testAppForFile()

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
  return (await succeededExport(t, m)).file.rawPayload
}

/** Uploads `zip` as a new organisation named `name`; resolves to the finished job. */
const imported = (m: TestMember, zip: Uint8Array, name: string) =>
  importedWith(m, zip, { create_org_if_missing: 'true', org_name: name })

/** Uploads `zip` with the form `fields` through `m`'s organisation; resolves to the finished job. */
function importedWith(m: TestMember, zip: Uint8Array, fields: Record<string, string>) {
  const form = new FormData()
  for (const [k, v] of Object.entries(fields)) form.append(k, v)
  form.append('zip_file', new Blob([zip as Uint8Array<ArrayBuffer>]), 'org.zip')
  return finishedOrgJob(t, m, 'import', form)
}

/**
 * `entries` zipped again with a manifest whose checksums match (a consistent archive), deflated
 * at `level` (0: stored, for a large entry made only to be refused).
 */
function rezipped(
  entries: Map<string, Buffer>,
  change: (name: string, b: Buffer) => Buffer,
  level: 0 | 6 = 6,
) {
  const manifest = JSON.parse(entries.get('manifest.json')!.toString())
  const files: Record<string, Uint8Array> = {}
  for (const [name, bytes] of entries) {
    if (name === 'manifest.json') continue
    const next = change(name, bytes)
    files[name] = next
    manifest.entries[name] = createHash('sha256').update(next).digest('hex')
  }
  files['manifest.json'] = new TextEncoder().encode(JSON.stringify(manifest))
  return zipSync(files, { level })
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

  it('names the new organisation without control or bidi characters, and refuses a name left empty', async () => {
    const owner = await signedInMember(t, 'Import Spoofed Name')
    const zip = await exportedArchive(owner)
    const job = await imported(owner, zip, 'Acme\u0007 Import\u202E\r\nLLP')
    expect(job.status, job.error ?? '').toBe('succeeded')
    const [org] = await orgsNamed('Acme Import LLP')
    expect(org?.id).toBe((job.result as { orgId: string }).orgId)
    const form = new FormData()
    form.append('create_org_if_missing', 'true')
    form.append('org_name', '\u202E\u0000')
    form.append('zip_file', new Blob([zip as Uint8Array<ArrayBuffer>]), 'org.zip')
    const empty = await t.app.inject({
      method: 'POST',
      url: `${orgUrl(owner)}/import`,
      headers: owner.headers,
      payload: form,
    })
    expect(empty.statusCode, empty.body).toBe(400)
    expect(empty.json().detail).toMatch(/org_name/)
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

  it("types imported files from their bytes, never from the archive's claimed media type", async () => {
    const owner = await signedInMember(t, 'Import Claims')
    await bucketWithObject(owner, 'claims')
    for (const [bytes, name] of [
      [await makePdf('A lease in PDF.'), 'lease.pdf'],
      [await makeDocx('A memo in DOCX.'), 'memo.docx'],
    ] as const)
      expect((await uploadDocument(t, owner, bytes, name)).statusCode).toBe(201)
    const entries = await readZip(await exportedArchive(owner))
    const claimHtml = (name: string, bytes: Buffer) =>
      name === 'tables/documents.ndjson' || name === 'tables/storage_objects.ndjson'
        ? Buffer.from(
            bytes.toString().replace(/"(mime_type|content_type)": ?"[^"]*"/g, '"$1":"text/html"'),
          )
        : bytes
    const job = await imported(owner, rezipped(entries, claimHtml), 'Claims Copy')
    expect(job.status, job.error ?? '').toBe('succeeded')
    const orgId = (job.result as { orgId: string }).orgId
    const headers = owner.headers

    const docs = (await t.app.inject({ url: `/api/v1/orgs/${orgId}/documents`, headers })).json()
      .items as { id: string; title: string }[]
    const served: Record<string, unknown> = {}
    for (const doc of docs) {
      const original = await t.app.inject({
        url: `/api/v1/orgs/${orgId}/documents/${doc.id}/file`,
        headers,
      })
      expect(original.statusCode, original.body).toBe(200)
      served[doc.title] = original.headers['content-type']
    }
    expect(served).toEqual({
      nda: 'text/plain',
      lease: 'application/pdf',
      memo: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    })
    const [object] = (
      await rowsOf(sql`SELECT id, content_type FROM storage_objects WHERE org_id = ${orgId}`)
    ).rows as { id: string; content_type: string }[]
    expect(object!.content_type).toBe('text/plain; charset=utf-8')
    const file = await t.app.inject({
      url: `/api/v1/orgs/${orgId}/storage/objects/${object!.id}`,
      headers,
    })
    expect(file.headers['content-type']).toBe('text/plain; charset=utf-8')
    expect(file.body).toBe('notes of claims')
  })

  it('refuses a document whose file is not a PDF, DOCX or text, naming its line, and leaves nothing', async () => {
    const owner = await signedInMember(t, 'Import Not A Document')
    const entries = await readZip(await exportedArchive(owner))
    // A PNG's signature and then binary bytes, under the document's name.
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0, 1, 2])
    const zip = rezipped(entries, (name, bytes) =>
      name.startsWith('files/documents/') ? png : bytes,
    )
    const job = await imported(owner, zip, 'Never A Document')
    expect(job.status).toBe('failed')
    expect(job.error).toMatch(/tables\/documents\.ndjson line 1: .*PDF, DOCX or plain-text/)
    expect(await orgsNamed('Never A Document')).toHaveLength(0)
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
    const full = diskFullAt(store, (key) => {
      if (key.startsWith(`orgs/${owner.orgId}/`)) return false
      staged.push(key)
      return true
    })
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
    expect(queued.filter((q) => q.kind === 'document-passages')).toHaveLength(1)
  })
})

/** `zip` with `line` (a JSON value) appended to entry `name`, checksums made to match. */
const withLine = (entries: Map<string, Buffer>, name: string, ...lines: unknown[]) =>
  rezipped(entries, (entry, bytes) =>
    entry === name
      ? Buffer.from(`${bytes}${lines.map((l) => `${JSON.stringify(l)}\n`).join('')}`)
      : bytes,
  )

/** The members line of an archive whose one line is `bytes` bytes of JSON, stored (not deflated). */
const withLongMemberLine = (entries: Map<string, Buffer>, bytes: number) =>
  rezipped(
    entries,
    (entry, old) => {
      if (entry !== 'tables/members.ndjson') return old
      const head = '{"user_id":"u","role":"member","email":"'
      const tail = '@firm.test"}\n'
      return Buffer.concat([
        old,
        Buffer.from(head),
        Buffer.alloc(bytes - head.length - tail.length + 1, 'a'),
        Buffer.from(tail),
      ])
    },
    0,
  )

/** The members, invitations (email, role, status) and rows naming `userId` in `orgId`. */
async function peopleOf(orgId: string, userId: string) {
  const members = (
    await t.database.db.select().from(member).where(eq(member.organizationId, orgId))
  ).map((m) => [m.userId, m.role])
  const invitations = (
    await t.database.db.select().from(invitation).where(eq(invitation.organizationId, orgId))
  )
    .map((i) => [i.email, i.role, i.status])
    .sort()
  const named = await rowsOf(sql`SELECT
      (SELECT count(*)::int FROM documents WHERE org_id = ${orgId} AND created_by = ${userId})
    + (SELECT count(*)::int FROM storage_buckets WHERE org_id = ${orgId} AND created_by = ${userId})
    + (SELECT count(*)::int FROM audit_logs WHERE org_id = ${orgId} AND actor_id = ${userId})
    + (SELECT count(*)::int FROM events WHERE org_id = ${orgId} AND actor_id = ${userId}) AS n`)
  return { members, invitations, rowsNamingThem: named.rows[0]!.n }
}

describe('an import adds nobody but its importer (decision 0103)', () => {
  it("makes the archive's members, another firm's owner included, unsent invitations alike whether or not they have an account, mailing nobody", async () => {
    const victim = await signedInMember(t, 'Enrol Victim Firm')
    const importer = await signedInMember(t, 'Enrol Importer')
    const entries = await readZip(await exportedArchive(importer))
    const ghost = `ghost-${crypto.randomUUID()}@elsewhere.test`
    const zip = withLine(
      entries,
      'tables/members.ndjson',
      { user_id: 'victim-on-source', email: victim.email.toUpperCase(), role: 'owner' },
      { user_id: 'ghost-on-source', email: ghost, role: 'owner' },
    )
    const mailsBefore = t.mailer.outbox.length
    const job = await imported(importer, zip, 'Enrolled Nobody')
    expect(job.status, job.error ?? '').toBe('succeeded')
    const orgId = (job.result as { orgId: string }).orgId
    expect(job.result).toMatchObject({ invitations: 2 })

    const people = await peopleOf(orgId, victim.userId)
    expect(people.members).toEqual([[importer.userId, 'owner']])
    // The account holder and the stranger are treated alike: what joined tells nothing.
    expect(people.invitations).toEqual([
      [ghost, 'admin', 'unsent'],
      [victim.email.toLowerCase(), 'admin', 'unsent'],
    ])
    expect(t.mailer.outbox.slice(mailsBefore).map((m) => m.to)).toEqual([])
    // Unsent, the invitation is not the victim's to see or accept.
    const theirs = await t.app.inject({
      url: '/api/auth/organization/list-user-invitations',
      headers: victim.headers,
    })
    expect(theirs.statusCode, theirs.body).toBe(200)
    expect(theirs.body).not.toContain(orgId)
    const [row] = await t.database.db
      .select()
      .from(invitation)
      .where(eq(invitation.email, victim.email.toLowerCase()))
    const accept = await t.app.inject({
      method: 'POST',
      url: '/api/auth/organization/accept-invitation',
      headers: victim.headers,
      payload: { invitationId: row!.id },
    })
    expect(accept.statusCode).toBe(400)
    expect((await peopleOf(orgId, victim.userId)).members).toEqual([[importer.userId, 'owner']])

    // The importer sends it from the Members page: now a real, pending invitation, mailed.
    const listed = await t.app.inject({
      url: `/api/v1/orgs/${orgId}/invitations`,
      headers: importer.headers,
    })
    const unsent = (listed.json().invitations as { id: string; email: string; sent: boolean }[])
      .filter((i) => i.email === ghost)
      .map(({ email, sent }) => ({ email, sent }))
    expect(unsent).toEqual([{ email: ghost, sent: false }])
    const ghostRow = (listed.json().invitations as { id: string; email: string }[]).find(
      (i) => i.email === ghost,
    )!
    const sent = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${orgId}/invitations/${ghostRow.id}/resend`,
      headers: importer.headers,
    })
    expect(sent.statusCode, sent.body).toBe(200)
    expect(sent.json()).toMatchObject({ email: ghost, role: 'admin', sent: true })
    expect(t.mailer.outbox.at(-1)?.to).toBe(ghost)
    const after = await t.database.db
      .select({ status: invitation.status })
      .from(invitation)
      .where(and(eq(invitation.organizationId, orgId), eq(invitation.email, ghost)))
    expect(after).toEqual([{ status: 'pending' }])
  })

  it("never attributes imported rows to this server's users: people columns are null and audit rows name their actor as imported", async () => {
    const victim = await signedInMember(t, 'Attributed Victim Firm')
    const importer = await signedInMember(t, 'Attributed Importer')
    await bucketWithObject(importer, 'papers')
    const entries = await readZip(await exportedArchive(importer))
    // The importer's own member line, given the victim's address: every row the importer made
    // in the source (created_by, actor_id) would be the victim's if people were matched.
    const zip = rezipped(entries, (name, bytes) =>
      name === 'tables/members.ndjson'
        ? Buffer.from(bytes.toString().replaceAll(importer.email, victim.email))
        : bytes,
    )
    const job = await imported(importer, zip, 'Attributed Copy')
    expect(job.status, job.error ?? '').toBe('succeeded')
    const orgId = (job.result as { orgId: string }).orgId
    expect((await peopleOf(orgId, victim.userId)).rowsNamingThem).toBe(0)
    const mine =
      await rowsOf(sql`SELECT action AS what FROM audit_logs WHERE org_id = ${orgId} AND actor_id = ${importer.userId}
      UNION ALL SELECT kind FROM events WHERE org_id = ${orgId} AND actor_id = ${importer.userId}`)
    // The importer's own acts: the import, and the indexing of its document it queued.
    expect(mine.rows.map((r) => r.what).sort()).toEqual([
      'job.create',
      'org.imported',
      'org.imported',
    ])
    const made = await rowsOf(
      sql`SELECT count(*)::int AS n FROM documents WHERE org_id = ${orgId} AND created_by IS NULL`,
    )
    expect(made.rows[0]!.n).toBe(1)

    // The audit viewer and its CSV show the archive's history as imported, with its addresses.
    const audit = await t.app.inject({
      url: `/api/v1/orgs/${orgId}/audit?limit=200`,
      headers: importer.headers,
    })
    expect(audit.statusCode, audit.body).toBe(200)
    const items = audit.json().items as {
      action: string
      actorType: string
      actorId: string | null
      actorName: string | null
      meta: Record<string, unknown>
    }[]
    const upload = items.find((i) => i.action === 'document.create')
    expect(upload).toMatchObject({
      actorType: 'imported',
      actorId: null,
      actorName: victim.email,
      meta: { importedActor: { type: 'user', id: importer.userId, email: victim.email } },
    })
    expect(
      items
        .filter((i) => i.actorType !== 'imported')
        .map((i) => `${i.action} ${i.actorId}`)
        .sort(),
    ).toEqual([`job.create ${importer.userId}`, `org.imported ${importer.userId}`])
    const csv = await t.app.inject({
      url: `/api/v1/orgs/${orgId}/audit/export`,
      headers: importer.headers,
    })
    expect(csv.statusCode, csv.body).toBe(200)
    const csvRow = csv.body.split('\n').find((line) => line.includes('"document.create"'))
    expect(csvRow).toContain(`"imported","","${victim.email}"`)
    const events = await rowsOf(
      sql`SELECT count(*)::int AS n FROM events WHERE org_id = ${orgId} AND actor_id IS NOT NULL AND kind <> 'org.imported'`,
    )
    expect(events.rows[0]!.n).toBe(0)
  })

  it("never lets an archive row name another firm's row: an unknown parent leaves the row out, whether or not it exists here", async () => {
    const victim = await signedInMember(t, 'Referenced Victim Firm')
    const upload = await uploadDocument(t, victim, new TextEncoder().encode('Secret.'), 'x.txt')
    const victimDoc = upload.json().id as string
    const importer = await signedInMember(t, 'Referencing Importer')
    const entries = await readZip(await exportedArchive(importer))
    const analysisNaming = (documentId: string) => ({
      id: crypto.randomUUID(),
      document_id: documentId,
      kind: 'risks',
      engine: 'local',
      model: 'm',
      result: { documentId },
      created_at: new Date().toISOString(),
      created_by: null,
    })
    const auditNaming = {
      id: crypto.randomUUID(),
      actor_type: 'user',
      actor_id: null,
      credential_id: null,
      action: 'document.delete',
      target_type: 'document',
      target_id: victimDoc,
      meta: {},
      created_at: new Date().toISOString(),
    }
    const results = []
    for (const named of [victimDoc, crypto.randomUUID()]) {
      const zip = rezipped(entries, (name, bytes) =>
        name === 'tables/analyses.ndjson'
          ? Buffer.from(`${bytes}${JSON.stringify(analysisNaming(named))}\n`)
          : name === 'tables/audit_logs.ndjson'
            ? Buffer.from(`${bytes}${JSON.stringify(auditNaming)}\n`)
            : bytes,
      )
      const job = await imported(importer, zip, `Referencing Copy ${named}`)
      expect(job.status, job.error ?? '').toBe('succeeded')
      results.push(job.result as { orgId: string; counts: Record<string, number> })
    }
    // An id that exists in another firm and one that exists nowhere are answered alike.
    expect(results[0]!.counts).toEqual(results[1]!.counts)
    expect(results[0]!.counts.analyses).toBe(0)
    const orgId = results[0]!.orgId
    const naming = await rowsOf(sql`SELECT
        (SELECT count(*)::int FROM analyses WHERE document_id = ${victimDoc} AND org_id <> ${victim.orgId})
      + (SELECT count(*)::int FROM audit_logs WHERE org_id = ${orgId} AND target_id = ${victimDoc}) AS n`)
    expect(naming.rows[0]!.n).toBe(0)
    const stoodIn = await rowsOf(
      sql`SELECT target_id FROM audit_logs WHERE org_id = ${orgId} AND action = 'document.delete'`,
    )
    expect(stoodIn.rows).toHaveLength(1)
    expect(stoodIn.rows[0]!.target_id).toMatch(/^[0-9a-f-]{36}$/)
    // Deleting the victim's document takes nothing of the importer's.
    const before = await holdings(orgId)
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `${orgUrl(victim)}/documents/${victimDoc}`,
      headers: victim.headers,
    })
    expect(deleted.statusCode, deleted.body).toBe(204)
    expect(await holdings(orgId)).toEqual(before)
  })

  it('refuses a line longer than MAX_LINE_BYTES with 413 archive_line_too_long, before holding it, and leaves nothing', async () => {
    const owner = await signedInMember(t, 'Import Long Line')
    const entries = await readZip(await exportedArchive(owner))
    const job = await imported(owner, withLongMemberLine(entries, MAX_LINE_BYTES + 1), 'Never Long')
    expect(job.status).toBe('failed')
    expect(job.errorCode).toBe('archive_line_too_long')
    expect(job.error).toMatch(/tables\/members\.ndjson line 2 is longer than 33554432 bytes/)
    expect(await orgsNamed('Never Long')).toHaveLength(0)
    expect(await stagingOrgs()).toEqual([])
  })
})

/** A bucket named `name` with one object in `m`'s organisation; resolves to their ids. */
async function bucketWithObject(m: TestMember, name: string) {
  const bucket = await t.app.inject({
    method: 'POST',
    url: `${orgUrl(m)}/storage/buckets`,
    headers: m.headers,
    payload: { name },
  })
  expect(bucket.statusCode, bucket.body).toBe(201)
  const object = await t.app.inject({
    method: 'POST',
    url: `${orgUrl(m)}/storage/buckets/${bucket.json().id}/objects`,
    headers: m.headers,
    payload: uploadForm(new TextEncoder().encode(`notes of ${name}`), 'notes.txt'),
  })
  expect(object.statusCode, object.body).toBe(201)
  return { bucketId: bucket.json().id as string, objectId: object.json().id as string }
}

const rowsOf = async (query: ReturnType<typeof sql>) =>
  (await t.database.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }

/**
 * Everything `orgId` holds, comparable: its rows in every exported table and counter, its
 * members and invitations, and the keys and sizes of its files (uploads waiting aside).
 */
async function holdings(orgId: string) {
  const tables = [
    ...EXPORTED_TABLES.map((x) => x.name),
    'entity_counts',
    'document_counts',
    'activity_daily',
  ]
  const out: Record<string, string[]> = {}
  for (const table of tables)
    out[table] = (
      await rowsOf(
        sql`SELECT to_jsonb(x)::text AS j FROM ${sql.raw(table)} x WHERE org_id = ${orgId}`,
      )
    ).rows
      .map((r) => r.j as string)
      .sort()
  out.member = (
    await t.database.db.select().from(member).where(eq(member.organizationId, orgId))
  ).map((r) => JSON.stringify(r))
  out.invitation = (
    await t.database.db.select().from(invitation).where(eq(invitation.organizationId, orgId))
  ).map((r) => JSON.stringify(r))
  const store = createFsBlobStore(t.blobDir)
  out.files = []
  // Its files, not the uploaded archives waiting in its imports folder.
  for await (const f of store.list(orgBlobPrefix(orgId)))
    if (!f.key.includes('/imports/')) out.files.push(`${f.key} ${(await store.head(f.key))?.size}`)
  out.files.sort()
  return out
}

/** Organisations still marked as an import's staging. */
const stagingOrgs = () =>
  t.database.db
    .select({ id: organization.id })
    .from(organization)
    .where(like(organization.metadata, '%importJobId%'))

/**
 * A source organisation with a document, two entities, a bucket 'shared' with an object and an
 * admin; a target with its own entity, a bucket 'shared' and the same admin as a plain member;
 * the source's archive with one more member whose e-mail has no account here.
 */
async function sourceAndTarget(tag: string) {
  const source = await signedInMember(t, `${tag} Source`)
  const target = await signedInMember(t, `${tag} Target`)
  const admin = await signedInWithRole(t, source.orgId, 'admin')
  await t.database.db.insert(member).values({
    id: crypto.randomUUID(),
    organizationId: target.orgId,
    userId: admin.userId,
    role: 'member',
  })
  const sourceBucket = await bucketWithObject(source, 'shared')
  await bucketWithObject(target, 'shared')
  const existing = await t.app.inject({
    method: 'POST',
    url: `${orgUrl(target)}/entities`,
    headers: target.headers,
    payload: { name: 'Existing Client', type: 'client', data: {} },
  })
  expect(existing.statusCode, existing.body).toBe(201)
  const entries = await readZip(await exportedArchive(source))
  const ghost = {
    user_id: 'ghost-user',
    email: `ghost-${tag.toLowerCase().replaceAll(' ', '-')}@elsewhere.test`,
    role: 'member',
  }
  const zip = rezipped(entries, (name, bytes) =>
    name === 'tables/members.ndjson' ? Buffer.from(`${bytes}${JSON.stringify(ghost)}\n`) : bytes,
  )
  return { source, target, admin, entries, zip, ghost, sourceBucket }
}

describe('organisation import into an existing organisation', () => {
  it('adds the archive with new ids beside what is there, suffixing a taken bucket name, inviting (unsent) its people rather than adding them, and remapping ids in JSON', async () => {
    const { source, target, admin, entries, zip, ghost, sourceBucket } =
      await sourceAndTarget('Into')
    const before = await holdings(target.orgId)
    const job = await importedWith(target, zip, { target_org_id: target.orgId })
    expect(job.status, job.error ?? '').toBe('succeeded')
    const result = job.result as unknown as { orgId: string; counts: Record<string, number> }
    expect(result.orgId).toBe(target.orgId)
    expect(result.counts).toMatchObject({ documents: 1, entities: 2, storage_buckets: 1 })
    expect(await stagingOrgs()).toEqual([])

    const after = await holdings(target.orgId)
    // What the target held is all still there, unchanged; entity counters count the new rows.
    for (const table of EXPORTED_TABLES.map((x) => x.name))
      expect(after[table], table).toEqual(expect.arrayContaining(before[table]!))
    expect(after.files).toEqual(expect.arrayContaining(before.files!))
    expect(after.files!.length).toBe(before.files!.length + 2)
    const counted = await rowsOf(
      sql`SELECT sum(entities)::int AS n FROM entity_counts WHERE org_id = ${target.orgId}`,
    )
    expect(counted.rows[0]!.n).toBe(3)

    const buckets = await rowsOf(
      sql`SELECT id, name FROM storage_buckets WHERE org_id = ${target.orgId} ORDER BY name`,
    )
    expect(buckets.rows.map((b) => b.name)).toEqual(['shared', 'shared-imported'])
    const newBucket = buckets.rows[1]!.id as string
    expect(newBucket).not.toBe(sourceBucket.bucketId)
    const object = await rowsOf(sql`SELECT id FROM storage_objects WHERE bucket_id = ${newBucket}`)
    const file = await t.app.inject({
      url: `${orgUrl(target)}/storage/objects/${object.rows[0]!.id}`,
      headers: target.headers,
    })
    expect(file.body).toBe('notes of shared')

    // The people (decision 0103): nobody joins; a member keeps their role and is not invited;
    // the source's owner (offered admin: ownership of the target is its owners' to give) and the
    // unknown e-mail alike become unsent invitations, never members or accounts.
    const roles = Object.fromEntries(
      (
        await t.database.db.select().from(member).where(eq(member.organizationId, target.orgId))
      ).map((m) => [m.userId, m.role]),
    )
    expect(roles).toEqual({ [target.userId]: 'owner', [admin.userId]: 'member' })
    const invited = await t.database.db
      .select()
      .from(invitation)
      .where(eq(invitation.organizationId, target.orgId))
    expect(invited.map((i) => [i.email, i.role, i.status]).sort()).toEqual(
      [
        [ghost.email, 'member', 'unsent'],
        [source.email.toLowerCase(), 'admin', 'unsent'],
      ].sort(),
    )
    expect(await rowsOf(sql`SELECT id FROM "user" WHERE email = ${ghost.email}`)).toMatchObject({
      rows: [],
    })

    // Ids inside audit and event JSON follow their rows: the bucket's creation names the new
    // bucket, and no archive id is left in the target's logs.
    const created = await rowsOf(
      sql`SELECT meta FROM events WHERE org_id = ${target.orgId} AND kind = 'bucket.created' AND meta->>'bucketId' = ${newBucket}`,
    )
    expect(created.rows).toHaveLength(1)
    const archiveIds = EXPORTED_TABLES.flatMap((x) =>
      ndjson(entries.get(`tables/${x.name}.ndjson`)).map((r) => r.id),
    ).filter((id): id is string => typeof id === 'string' && id.length === 36)
    expect(archiveIds.length).toBeGreaterThan(5)
    const logs = await rowsOf(
      sql`SELECT meta::text AS m FROM events WHERE org_id = ${target.orgId} UNION ALL SELECT meta::text || coalesce(target_id, '') FROM audit_logs WHERE org_id = ${target.orgId}`,
    )
    for (const { m } of logs.rows) for (const id of archiveIds) expect(m).not.toContain(id)
    const recorded = await rowsOf(
      sql`SELECT meta FROM audit_logs WHERE org_id = ${target.orgId} AND action = 'org.imported'`,
    )
    expect(recorded.rows[0]!.meta).toMatchObject({ jobId: job.id, rows: expect.any(Number) })
    const event = await rowsOf(
      sql`SELECT meta FROM events WHERE org_id = ${target.orgId} AND kind = 'org.imported'`,
    )
    expect(event.rows[0]!.meta).toMatchObject({ jobId: job.id, sourceOrgId: source.orgId })
  })

  it('answers an unknown or foreign target like one the caller cannot see (404), and 403 to its admin, keeping no upload', async () => {
    const owner = await signedInMember(t, 'Into Refused')
    const stranger = await signedInMember(t, 'Into Stranger')
    const send = (m: TestMember, target: string) => {
      const form = new FormData()
      form.append('target_org_id', target)
      form.append('zip_file', new Blob([new Uint8Array([80, 75])]), 'a.zip')
      return t.app.inject({
        method: 'POST',
        url: `${orgUrl(m)}/import`,
        headers: m.headers,
        payload: form,
      })
    }
    const unknown = await send(owner, crypto.randomUUID())
    const foreign = await send(owner, stranger.orgId)
    expect(unknown.statusCode).toBe(404)
    expect(foreign.statusCode).toBe(404)
    const { instance: _a, ...u } = unknown.json()
    const { instance: _b, ...f } = foreign.json()
    expect(f).toEqual(u)
    const adminThere = await signedInWithRole(t, stranger.orgId, 'admin')
    await t.database.db.insert(member).values({
      id: crypto.randomUUID(),
      organizationId: owner.orgId,
      userId: adminThere.userId,
      role: 'owner',
    })
    const below = await send({ ...adminThere, orgId: owner.orgId }, stranger.orgId)
    expect(below.statusCode).toBe(403)
    expect(await filesUnder(owner.orgId)).toBe(0)
  })

  it('leaves the target exactly as before when a row late in a file is refused', async () => {
    const { target, entries } = await sourceAndTarget('Into Bad Row')
    const zip = rezipped(entries, (name, bytes) =>
      name === 'tables/audit_logs.ndjson'
        ? Buffer.from(`${bytes}${JSON.stringify({ id: crypto.randomUUID(), action: null })}\n`)
        : bytes,
    )
    const before = await holdings(target.orgId)
    const job = await importedWith(target, zip, { target_org_id: target.orgId })
    expect(job.status).toBe('failed')
    expect(job.error).toMatch(/tables\/audit_logs\.ndjson line \d+/)
    // The request itself is audited (the job and 'org.import_requested'); nothing else changed.
    const after = await holdings(target.orgId)
    after.audit_logs = after.audit_logs!.filter((row) => !row.includes(job.id))
    expect(after).toEqual(before)
    expect(await stagingOrgs()).toEqual([])
  })

  it('leaves the target exactly as before when writing a file fails', async () => {
    const { target, zip } = await sourceAndTarget('Into Disk Full')
    const store = createFsBlobStore(t.blobDir)
    const blobKey = `orgs/${target.orgId}/imports/${crypto.randomUUID()}.zip`
    await store.putStream(blobKey, [zip], 'application/zip')
    const before = await holdings(target.orgId)
    let written = 0
    // The second imported file (the bucket object, after the document) meets a full disk.
    const full = diskFullAt(
      store,
      (key) =>
        key.startsWith(`orgs/${target.orgId}/`) && !key.includes('/imports/') && ++written === 2,
    )
    await expect(
      importArchive(
        deps(full),
        { userId: target.userId, jobId: crypto.randomUUID() },
        { blobKey, targetOrgId: target.orgId },
        quiet,
      ),
    ).rejects.toThrow('ENOSPC')
    expect(written).toBe(2)
    await store.delete(blobKey)
    expect(await holdings(target.orgId)).toEqual(before)
    expect(await stagingOrgs()).toEqual([])
  })

  it('after a crash mid-import, the retry sweeps what was staged; after a crash past publication, it finishes without importing twice', async () => {
    const { target, zip } = await sourceAndTarget('Into Crash')
    const store = createFsBlobStore(t.blobDir)
    const blobKey = `orgs/${target.orgId}/imports/${crypto.randomUUID()}.zip`
    await store.putStream(blobKey, [zip], 'application/zip')
    const before = await holdings(target.orgId)
    const jobId = crypto.randomUUID()
    // What a process killed mid-import leaves: the hidden organisation, a staged document
    // whose file already sits under the target's keys.
    const leftover = crypto.randomUUID()
    await t.database.db.insert(organization).values({
      id: leftover,
      name: 'Import leftover',
      slug: `leftover-${leftover}`,
      metadata: JSON.stringify({ importJobId: jobId }),
    })
    const staleKey = `orgs/${target.orgId}/documents/${crypto.randomUUID()}/original`
    await t.database.db.execute(sql`INSERT INTO documents (org_id, title, content, file_key)
      VALUES (${leftover}, 'half', 'half', ${staleKey})`)
    await store.putStream(staleKey, [Buffer.from('half')], 'text/plain')
    expect((await holdings(target.orgId)).files).toContain(`${staleKey} 4`)

    const input = { blobKey, targetOrgId: target.orgId }
    const importer = { userId: target.userId, jobId }
    const result = await importArchive(deps(store), importer, input, quiet)
    expect(result.counts).toMatchObject({ entities: 2 })
    expect(await store.head(staleKey)).toBeNull()
    expect(await stagingOrgs()).toEqual([])
    const after = await holdings(target.orgId)
    expect(after.entities!.length).toBe(before.entities!.length + 2)

    // The job is retried after it published (a crash before its end was recorded).
    expect(await importArchive(deps(store), importer, input, quiet)).toEqual(result)
    expect(await holdings(target.orgId)).toEqual(after)
  })
})

describe("the operator's import command", () => {
  it('imports a file as a new organisation or into one named by slug, printing progress, and refuses an unknown slug', async () => {
    const owner = await signedInMember(t, 'Command Source')
    const zip = await exportedArchive(owner)
    const dir = await mkdtemp(path.join(os.tmpdir(), 'lexdesk-import-'))
    const file = path.join(dir, 'org.zip')
    await writeFile(file, zip)
    const seen: string[] = []
    const created = await importFromFile(
      commandDeps(createFsBlobStore(t.blobDir)),
      { file, orgName: 'Command Copy', owner: owner.email.toUpperCase() },
      (message) => seen.push(message),
    )
    expect(created.counts).toMatchObject({ documents: 1, entities: 2 })
    expect(seen).toEqual(expect.arrayContaining(['Checking the archive', 'Imported entities']))
    const [org] = await orgsNamed('Command Copy')
    expect(org!.id).toBe(created.orgId)
    const owners = await t.database.db
      .select()
      .from(member)
      .where(eq(member.organizationId, org!.id))
    expect(owners.map((m) => [m.userId, m.role])).toEqual([[owner.userId, 'owner']])
    const audit = await rowsOf(
      sql`SELECT actor_type FROM audit_logs WHERE org_id = ${org!.id} AND action = 'org.imported'`,
    )
    expect(audit.rows).toEqual([{ actor_type: 'system' }])

    const into = await importFromFile(commandDeps(createFsBlobStore(t.blobDir)), {
      file,
      org: org!.slug,
    })
    expect(into.orgId).toBe(org!.id)
    const entities = await rowsOf(
      sql`SELECT count(*)::int AS n FROM entities WHERE org_id = ${org!.id}`,
    )
    expect(entities.rows[0]!.n).toBe(4)

    await expect(
      importFromFile(commandDeps(createFsBlobStore(t.blobDir)), { file, org: 'no-such-org' }),
    ).rejects.toMatchObject({ code: 'organization_not_found' })
    await expect(
      importFromFile(commandDeps(createFsBlobStore(t.blobDir)), {
        file,
        orgName: 'Nobody Owns',
        owner: 'not an address',
      }),
    ).rejects.toMatchObject({ code: 'validation_failed' })
    expect(await orgsNamed('Nobody Owns')).toHaveLength(0)
  })

  it("on a fresh install creates --owner's account as a first sign-in would, and answers the organisation's slug", async () => {
    const source = await signedInMember(t, 'Command Fresh Source')
    const dir = await mkdtemp(path.join(os.tmpdir(), 'lexdesk-import-'))
    const file = path.join(dir, 'org.zip')
    await writeFile(file, await exportedArchive(source))
    const email = uniqueEmail('fresh-owner')
    const created = await importFromFile(commandDeps(createFsBlobStore(t.blobDir)), {
      file,
      orgName: 'Command Fresh Copy',
      owner: `  ${email.toUpperCase()} `,
    })
    const [org] = await orgsNamed('Command Fresh Copy')
    expect(created).toMatchObject({ orgId: org!.id, slug: org!.slug })
    expect(created.owner).toMatchObject({ email, created: true })
    // One row in better-auth's user table, stored as sign-in stores it (lower-cased, trimmed).
    const accounts = await t.database.db
      .select()
      .from(user)
      .where(sql`lower(${user.email}) = ${email}`)
    expect(accounts.map((a) => [a.id, a.email, a.name])).toEqual([[created.owner!.id, email, '']])
    const owners = await t.database.db
      .select()
      .from(member)
      .where(eq(member.organizationId, org!.id))
    expect(owners.map((m) => [m.userId, m.role])).toEqual([[created.owner!.id, 'owner']])

    // Its person signs in later through the web and is that account, now with a verified address.
    const res = await followLink(t, await requestMagicLink(t, email))
    const cookie = [res.headers['set-cookie'] ?? []].flat().find((c) => c.includes('session_token'))
    const session = await t.app.inject({
      method: 'GET',
      url: '/api/auth/get-session',
      headers: { cookie: cookie!.split(';')[0]!, origin: TEST_ORIGIN },
    })
    expect((session.json() as { user: { id: string; emailVerified: boolean } }).user).toMatchObject(
      { id: created.owner!.id, emailVerified: true },
    )

    // A second import for the same person finds the account rather than making another.
    const again = await importFromFile(commandDeps(createFsBlobStore(t.blobDir)), {
      file,
      orgName: 'Command Fresh Again',
      owner: email,
    })
    expect(again.owner).toMatchObject({ id: created.owner!.id, created: false })
    expect(again.slug).toBe((await orgsNamed('Command Fresh Again'))[0]!.slug)
  })

  it('leaves no account behind when the import it was created for is refused', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'lexdesk-import-'))
    const file = path.join(dir, 'not-an-archive.zip')
    await writeFile(file, zipSync({ 'hello.txt': new TextEncoder().encode('hello') }))
    const email = uniqueEmail('refused-owner')
    await expect(
      importFromFile(commandDeps(createFsBlobStore(t.blobDir)), {
        file,
        orgName: 'Command Refused',
        owner: email,
      }),
    ).rejects.toMatchObject({ code: 'archive_invalid' })
    const accounts = await t.database.db.select().from(user).where(eq(user.email, email))
    expect(accounts).toHaveLength(0)
    expect(await orgsNamed('Command Refused')).toHaveLength(0)
  })

  it("refuses a new organisation without --owner rather than giving it to the archive's owners (decision 0103)", async () => {
    const owner = await signedInMember(t, 'Command No Owner')
    const dir = await mkdtemp(path.join(os.tmpdir(), 'lexdesk-import-'))
    const file = path.join(dir, 'org.zip')
    await writeFile(file, await exportedArchive(owner))
    await expect(
      importFromFile(commandDeps(createFsBlobStore(t.blobDir)), {
        file,
        orgName: 'Owned By Archive',
      }),
    ).rejects.toMatchObject({
      code: 'validation_failed',
      message: expect.stringMatching(/--owner/),
    })
    expect(await orgsNamed('Owned By Archive')).toHaveLength(0)
  })
})

const quiet = { signal: new AbortController().signal, progress: () => undefined }

/** Jobs queued by importArchive in these tests: kind and input. */
const queued: { kind: string; input: unknown }[] = []

/** importArchive's dependencies over `blobs`, recording what it queues. */
/** The command's services: the import's, and a better-auth on the test database. */
function commandDeps(blobs: BlobStore): ImportCommandDeps {
  const auth = createAuth({
    db: t.database.db,
    mailer: createConsoleMailer(() => {}),
    secret: TEST_SECRET,
    publicUrl: TEST_ORIGIN,
    log: createLogger({ level: 'silent' }),
    maxOrganizationsPerUser: 10,
  })
  return { ...deps(blobs), auth }
}

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
