/**
 * The one path that creates and deletes documents (decision 41): the row with its audit entry,
 * event, file and indexing job on the way in; row, audit entry, event, jobs and file on the way
 * out. Indexing is queued by this TypeScript, not by a database trigger.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../db/client'
import { auditLogs, documents, events, jobs } from '../db/schema'
import { withTenant, type Principal } from '../db/tenant'
import { createFsBlobStore } from '../blob/fs-blob-store'
import type { BlobStore } from '../blob/blob-store'
import { newOrganisations, openTestDatabase } from '../test/test-database'
import { queueOnlyJobRunner } from '../test/queue-only-job-runner'
import { createDocument, deleteDocument, documentFileKey, insertDocument } from './document-writes'

let database: Database
let blobs: BlobStore
let blobDir: string

beforeAll(async () => {
  database = await openTestDatabase()
  blobDir = await mkdtemp(path.join(os.tmpdir(), 'lexdesk-document-writes-'))
  blobs = createFsBlobStore(blobDir)
})
afterAll(async () => {
  await database.close()
  await rm(blobDir, { recursive: true, force: true })
})

/** An owner principal of a new organisation (no user row needed: the columns are plain text). */
async function owner(): Promise<Principal> {
  const [orgId] = await newOrganisations(database, 1)
  return { orgId: orgId!, userId: null, role: 'owner', actorType: 'system' }
}

/** What the organisation holds about `documentId`: its jobs, audit actions and event kinds. */
function traces(principal: Principal, documentId: string) {
  return withTenant(database.db, principal, async (tx) => ({
    jobs: await tx
      .select({ kind: jobs.kind, status: jobs.status, background: jobs.background })
      .from(jobs)
      .where(eq(jobs.subjectId, documentId)),
    audit: (
      await tx
        .select({ action: auditLogs.action })
        .from(auditLogs)
        .where(eq(auditLogs.targetId, documentId))
        .orderBy(auditLogs.createdAt)
    ).map((a) => a.action),
    events: (
      await tx
        .select({ kind: events.kind })
        .from(events)
        .where(sql`${events.meta}->>'documentId' = ${documentId}`)
        .orderBy(events.id)
    ).map((e) => e.kind),
  }))
}

const filesOnDisk = async () =>
  (await readdir(blobDir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile())
    .length

/** A document id and its original file, already in the store as an upload leaves it. */
async function storedUpload(principal: Principal, text: string, fileName: string) {
  const id = crypto.randomUUID()
  const key = documentFileKey(principal.orgId, id)
  const sizeBytes = await blobs.putStream(key, [Buffer.from(text)], 'text/plain')
  return { id, file: { key, fileName, mimeType: 'text/plain', sizeBytes } }
}

describe('document writes', () => {
  it('queues no indexing for a row written past the module: no trigger starts work', async () => {
    const principal = await owner()
    const [row] = await withTenant(database.db, principal, (tx) =>
      tx
        .insert(documents)
        .values({ orgId: principal.orgId, title: 'Bulk-loaded', content: 'Loaded text.' })
        .returning({ id: documents.id }),
    )
    expect((await traces(principal, row!.id)).jobs).toEqual([])
  })

  it('creates a document with its file, audit entry, event and one background indexing job', async () => {
    const principal = await owner()
    const row = await createDocument(
      { db: database.db, blobs, jobs: queueOnlyJobRunner(database.db) },
      principal,
      {
        title: 'Supply agreement',
        content: 'The supplier delivers.',
        documentType: 'contract',
        ...(await storedUpload(principal, 'The supplier delivers.', 'a.txt')),
      },
    )
    expect(await blobs.head(row.fileKey!)).toMatchObject({ size: expect.any(Number) })
    expect(await traces(principal, row.id)).toEqual({
      jobs: [{ kind: 'document-passages', status: 'queued', background: true }],
      audit: ['document.create'],
      events: ['document.uploaded'],
    })
  })

  it('writes nothing, neither row nor file nor job, when the row cannot be written', async () => {
    const principal = await owner()
    const files = await filesOnDisk()
    const attempt = createDocument(
      { db: database.db, blobs, jobs: queueOnlyJobRunner(database.db) },
      principal,
      {
        appId: crypto.randomUUID(),
        title: 'Filed under no app',
        content: 'Text.',
        documentType: 'contract',
        ...(await storedUpload(principal, 'abc', 'a.txt')),
      },
    )
    await expect(attempt).rejects.toMatchObject({ code: 'app_not_found' })
    expect(await filesOnDisk()).toBe(files)
    const held = await withTenant(database.db, principal, async (tx) => ({
      documents: (await tx.select().from(documents)).length,
      jobs: (await tx.select().from(jobs)).length,
    }))
    expect(held).toEqual({ documents: 0, jobs: 0 })
  })

  it("leaves the event to a caller whose own event names the document, in the caller's transaction", async () => {
    const principal = await owner()
    const id = await withTenant(database.db, principal, async (tx) => {
      const row = await insertDocument(queueOnlyJobRunner(database.db), tx, principal, {
        title: 'Transcript',
        content: 'Hello.',
        documentType: 'transcript',
        event: null,
      })
      return row.id
    })
    expect(await traces(principal, id)).toEqual({
      jobs: [{ kind: 'document-passages', status: 'queued', background: true }],
      audit: ['document.create'],
      events: [],
    })
  })

  it('deletes a document with its file, cancels its indexing and records the deletion', async () => {
    const principal = await owner()
    const deps = { db: database.db, blobs, jobs: queueOnlyJobRunner(database.db) }
    const row = await createDocument(deps, principal, {
      title: 'Withdrawn',
      content: 'Text.',
      documentType: 'contract',
      ...(await storedUpload(principal, 'w', 'w.txt')),
    })
    await deleteDocument(deps, principal, row.id)
    expect(await blobs.head(row.fileKey!)).toBeNull()
    expect(await traces(principal, row.id)).toEqual({
      jobs: [{ kind: 'document-passages', status: 'cancelled', background: true }],
      audit: ['document.create', 'document.delete'],
      events: ['document.uploaded', 'document.deleted'],
    })
    await expect(deleteDocument(deps, principal, row.id)).rejects.toMatchObject({
      code: 'document_not_found',
    })
  })
})
