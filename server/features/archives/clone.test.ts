/**
 * Organisation clone end to end through the real app (issue 27, decision 0072): the copy holds
 * what the source holds, entry by entry, except ids, times and the name, owned by the person
 * who asked; without its buckets when asked; owners only; a cancel at any point leaves no
 * organisation, row or file behind, and no clone ever leaves its temporary archive.
 */
import { describe, expect, it } from 'vitest'
import { and, eq, sql } from 'drizzle-orm'
import {
  testAppForFile,
  signedInMember,
  signedInWithRole,
  type TestMember,
} from '../../test/test-app'
import { finishedOrgJob } from '../../test/organisation-jobs'
import { ndjson } from '../../test/read-zip'
import { seedOrganisation } from '../../test/seed-organisation'
import { expectSameOrganisation, exportOf, filesOf } from '../../test/archive-comparison'
import { member, organization } from '../../db/schema'
import { createFsBlobStore } from '../../blob/fs-blob-store'
import { cloneOrganisation, type CloneDeps } from './clone-organisation'
import { cloneFromCommand } from './clone-command'
import { queueOnlyJobRunner } from '../../test/queue-only-job-runner'
import { uploadDocument } from '../../test/document-uploads'
import { SAMPLE_CONTRACT } from '../../test/sample-files'

const t = await testAppForFile()

const orgUrl = (m: TestMember) => `/api/v1/orgs/${m.orgId}`

/** Clones `m`'s organisation through the API; resolves to the succeeded job's result. */
async function cloned(m: TestMember, body: Record<string, unknown>) {
  const job = await finishedOrgJob(t, m, 'clone', body)
  expect(job.status, job.error ?? '').toBe('succeeded')
  return job.result as unknown as { orgId: string; slug: string; counts: Record<string, number> }
}

/** A clone's dependencies over the test app's database and store. */
const cloneDeps = (): CloneDeps => ({
  db: t.database.db,
  blobs: createFsBlobStore(t.blobDir),
  // Stored for the test app's own runner to claim (a clone queues the copy's unfinished indexing).
  jobs: queueOnlyJobRunner(t.database.db),
  engines: { embedder: { id: 'test-embedder' } },
  limits: { importMaxBytes: 1e9 },
})

/** Rows of a raw query. */
async function rowsOf<R>(query: ReturnType<typeof sql>): Promise<R[]> {
  return ((await t.database.db.execute(query)) as unknown as { rows: R[] }).rows
}

/**
 * Waits until no job of organisation `orgId` is queued or running (its documents indexed, its
 * analyses written): a clone or export taken before then copies whatever was committed so far.
 */
async function settled(orgId: string): Promise<void> {
  await expect
    .poll(
      async () =>
        (
          await rowsOf<{ n: number }>(
            sql`SELECT count(*)::int AS n FROM jobs
                WHERE org_id = ${orgId} AND status IN ('queued', 'running')`,
          )
        )[0]!.n,
      { timeout: 60_000, interval: 100 },
    )
    .toBe(0)
}

/** The passages of organisation `orgId`, in order: each document's title and its texts. */
async function passagesOf(orgId: string): Promise<string[]> {
  const rows = await rowsOf<{ line: string }>(
    sql`SELECT d.title || ' #' || c.ordinal || ': ' || c.content AS line
        FROM doc_chunks c JOIN documents d ON d.id = c.document_id
        WHERE c.org_id = ${orgId} ORDER BY d.title, c.ordinal`,
  )
  return rows.map((row) => row.line)
}

/** The keys of every stored object under `prefix`. */
async function keysUnder(prefix: string): Promise<string[]> {
  const keys: string[] = []
  for await (const blob of createFsBlobStore(t.blobDir).list(prefix)) keys.push(blob.key)
  return keys
}

/**
 * What the copying added to the copy's logs (and the source's before it), which A cannot hold:
 * A's own export and clone request, the import's entries, the export and clone jobs' creation.
 */
const cloneTrace = (row: string) =>
  ['"org.imported"', '"org.exported"', '"org.clone_requested"', '"kind":"tenant-'].some((mark) =>
    row.includes(mark),
  )

describe('organisation clone', () => {
  it('copies every row and file of the source but ids, times and the name, and keeps no archive', async () => {
    const owner = await signedInMember(t, 'Clone Source')
    const colleague = await signedInWithRole(t, owner.orgId, 'admin')
    await seedOrganisation(t, owner)
    // The source fully indexed first: the copy's passages are then exactly the source's (a clone
    // taken mid-indexing re-indexes the copy, tested below).
    await settled(owner.orgId)
    const a = await exportOf(t, owner, owner.orgId)

    const copy = await cloned(owner, {
      source_org_id: owner.orgId,
      target_org_name: 'Clone Target',
      clone_buckets: true,
    })
    expect(copy.counts).toMatchObject({ documents: 1, entities: 1, storage_objects: 1 })
    const [org] = await t.database.db
      .select()
      .from(organization)
      .where(eq(organization.id, copy.orgId))
    expect(org).toMatchObject({ name: 'Clone Target', slug: copy.slug, metadata: null })
    const roles = await t.database.db
      .select({ userId: member.userId, role: member.role })
      .from(member)
      .where(eq(member.organizationId, copy.orgId))
    expect(roles).toEqual(
      expect.arrayContaining([
        { userId: owner.userId, role: 'owner' },
        { userId: colleague.userId, role: 'admin' },
      ]),
    )

    const b = await exportOf(t, owner, copy.orgId)
    for (const table of ['documents', 'analyses', 'doc_chunks', 'entities', 'storage_objects'])
      expect(ndjson(a.entries.get(`tables/${table}.ndjson`)).length, table).toBeGreaterThan(0)
    expectSameOrganisation(a.entries, b.entries, cloneTrace)
    // The clone kept the source's embeddings (same server): nothing is queued for re-indexing.
    const passages = ndjson(b.entries.get('tables/doc_chunks.ndjson'))
    expect(
      passages.every((p) => Array.isArray(p.embedding) || typeof p.embedding === 'string'),
    ).toBe(true)

    expect(await keysUnder(`orgs/${owner.orgId}/clones/`)).toEqual([])
    const logged = await t.database.db.execute(
      sql`SELECT (SELECT count(*)::int FROM audit_logs WHERE org_id = ${owner.orgId}
            AND action = 'org.cloned' AND target_id = ${copy.orgId}) AS audit,
          (SELECT count(*)::int FROM events WHERE org_id = ${owner.orgId}
            AND kind = 'org.cloned' AND meta->>'targetOrgId' = ${copy.orgId}) AS events`,
    )
    expect((logged as unknown as { rows: unknown[] }).rows[0]).toEqual({ audit: 1, events: 1 })
  })

  it('re-indexes in the copy a document the source was still indexing, so the copy ends with all its passages', async () => {
    const owner = await signedInMember(t, 'Clone Mid Indexing')
    const upload = await uploadDocument(
      t,
      owner,
      new TextEncoder().encode(SAMPLE_CONTRACT.repeat(4)),
      'long.txt',
    )
    expect(upload.statusCode, upload.body).toBe(201)
    await settled(owner.orgId)
    const whole = await passagesOf(owner.orgId)
    expect(whole.length).toBeGreaterThan(2)
    // The source caught mid-indexing, as its job leaves it between two of its transactions: a
    // part of the passages written, the job not finished (held back, so nothing ends it here).
    await t.database.db.execute(
      sql`DELETE FROM doc_chunks WHERE org_id = ${owner.orgId} AND ordinal >= 2`,
    )
    await t.database.db.execute(
      sql`UPDATE jobs SET status = 'queued', finished_at = NULL,
            run_after = now() + interval '1 day'
          WHERE org_id = ${owner.orgId} AND kind = 'document-passages'`,
    )

    const copy = await cloned(owner, { target_org_name: 'Clone Mid Copy', clone_buckets: false })
    const queued = await rowsOf<{ kind: string; subject_id: string }>(
      sql`SELECT kind, subject_id FROM jobs WHERE org_id = ${copy.orgId} AND kind = 'document-passages'`,
    )
    const [copied] = await rowsOf<{ id: string }>(
      sql`SELECT id FROM documents WHERE org_id = ${copy.orgId}`,
    )
    expect(queued).toEqual([{ kind: 'document-passages', subject_id: copied!.id }])
    await settled(copy.orgId)
    expect(await passagesOf(copy.orgId)).toEqual(whole)
  })

  it('leaves the buckets and their objects out when clone_buckets is false', async () => {
    const owner = await signedInMember(t, 'Clone Without Buckets')
    await seedOrganisation(t, owner)
    const copy = await cloned(owner, { target_org_name: 'No Buckets', clone_buckets: false })
    expect(copy.counts).toMatchObject({ documents: 1, storage_buckets: 0, storage_objects: 0 })
    const b = await exportOf(t, owner, copy.orgId)
    expect(ndjson(b.entries.get('tables/storage_buckets.ndjson'))).toEqual([])
    expect(ndjson(b.entries.get('tables/storage_objects.ndjson'))).toEqual([])
    expect(filesOf(b.entries).map((f) => f.split(':')[0])).toEqual(['documents'])
    expect(await keysUnder(`orgs/${copy.orgId}/buckets/`)).toEqual([])
  })

  it('refuses an admin and a member with 403, and hides another organisation behind a 404', async () => {
    const owner = await signedInMember(t, 'Clone Guarded')
    const outsider = await signedInMember(t, 'Clone Outsider')
    const body = { target_org_name: 'Stolen Copy' }
    for (const role of ['admin', 'member'] as const) {
      const actor = await signedInWithRole(t, owner.orgId, role)
      const res = await t.app.inject({
        method: 'POST',
        url: `${orgUrl(owner)}/clone`,
        headers: actor.headers,
        payload: body,
      })
      expect(res.statusCode, role).toBe(403)
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    }
    const foreign = await t.app.inject({
      method: 'POST',
      url: `${orgUrl(owner)}/clone`,
      headers: outsider.headers,
      payload: body,
    })
    expect(foreign.statusCode).toBe(404)
    const named = await t.database.db
      .select()
      .from(organization)
      .where(eq(organization.name, 'Stolen Copy'))
    expect(named).toEqual([])
  })

  it('names the new organisation without control or bidi characters, as an organisation created by hand', async () => {
    const owner = await signedInMember(t, 'Clone Spoofed Name')
    const copy = await cloned(owner, {
      target_org_name: 'Acme\u0000 Copy\u202E\r\nLLP',
      clone_buckets: false,
    })
    const [org] = await t.database.db
      .select({ name: organization.name })
      .from(organization)
      .where(eq(organization.id, copy.orgId))
    expect(org?.name).toBe('Acme Copy LLP')
  })

  it("refuses a source_org_id other than the path's and a name empty once cleaned with 400", async () => {
    const owner = await signedInMember(t, 'Clone Checked')
    const other = await signedInMember(t, 'Clone Checked Other')
    for (const payload of [
      { source_org_id: other.orgId, target_org_name: 'Copy' },
      { target_org_name: '   ' },
      { target_org_name: '\u202E\u0000\r\n' },
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: `${orgUrl(owner)}/clone`,
        headers: owner.headers,
        payload,
      })
      expect(res.statusCode, res.body).toBe(400)
    }
  })

  it.each(['Exported documents', 'Imported documents'])(
    'a cancel at "%s" leaves no organisation, row or file behind',
    async (at) => {
      const owner = await signedInMember(t, `Clone Cancel ${at}`)
      await seedOrganisation(t, owner)
      const orgsBefore = await t.database.db.select({ id: organization.id }).from(organization)
      const keysBefore = await keysUnder('orgs/')
      const cancel = new AbortController()
      const run = cloneOrganisation(
        cloneDeps(),
        {
          actor: { orgId: owner.orgId, userId: owner.userId, role: 'owner', actorType: 'user' },
          ownerId: owner.userId,
          jobId: null,
          targetOrgName: 'Cancelled Copy',
          cloneBuckets: true,
        },
        {
          signal: cancel.signal,
          progress: (_fraction, message) => {
            if (message === at) cancel.abort(new Error('cancelled by the test'))
          },
        },
      )
      await expect(run).rejects.toThrow('cancelled by the test')
      const orgsAfter = await t.database.db.select({ id: organization.id }).from(organization)
      expect(orgsAfter.map((o) => o.id).sort()).toEqual(orgsBefore.map((o) => o.id).sort())
      expect((await keysUnder('orgs/')).sort()).toEqual(keysBefore.sort())
      const cloned = await t.database.db
        .select()
        .from(member)
        .where(and(eq(member.userId, owner.userId), eq(member.role, 'owner')))
      expect(cloned).toHaveLength(1)
    },
  )

  it("the operator's command clones by slug for the source's owner, recorded as the system's", async () => {
    const owner = await signedInMember(t, 'Clone By Command')
    await seedOrganisation(t, owner)
    const [source] = await t.database.db
      .select({ slug: organization.slug })
      .from(organization)
      .where(eq(organization.id, owner.orgId))
    const messages: string[] = []
    const copy = await cloneFromCommand(
      cloneDeps(),
      { org: source!.slug, name: 'Command Copy', cloneBuckets: false },
      (message) => messages.push(message),
    )
    expect(copy.counts).toMatchObject({ documents: 1, entities: 1, storage_objects: 0 })
    expect(messages).toContain('Imported documents')
    const [copied] = await t.database.db
      .select({ slug: organization.slug })
      .from(organization)
      .where(eq(organization.id, copy.orgId))
    expect(copy.slug).toBe(copied!.slug)
    const owners = await t.database.db
      .select({ userId: member.userId })
      .from(member)
      .where(and(eq(member.organizationId, copy.orgId), eq(member.role, 'owner')))
    expect(owners).toEqual([{ userId: owner.userId }])
    const audit = await t.database.db.execute(
      sql`SELECT actor_type FROM audit_logs WHERE org_id = ${owner.orgId} AND action = 'org.cloned'`,
    )
    expect((audit as unknown as { rows: unknown[] }).rows).toEqual([{ actor_type: 'system' }])
    expect(await keysUnder(`orgs/${owner.orgId}/clones/`)).toEqual([])
    await expect(
      cloneFromCommand(cloneDeps(), { org: 'no-such-firm', name: 'Nothing', cloneBuckets: true }),
    ).rejects.toThrow('No organization has the slug no-such-firm.')
  })
})
