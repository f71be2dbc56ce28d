/**
 * The CSV import in short transactions (decision 0035): another organisation's requests run
 * between the import's batches, the rows written so far stay out of sight until the import
 * succeeds, and a failure sweeps them and gives their space back.
 */
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, signedInMember, type TestApp, type TestMember } from '../../test/test-app'
import { createFsBlobStore } from '../../blob/fs-blob-store'
import type { BlobStore } from '../../blob/blob-store'
import { entities, entityCounts, entityImports, jobs } from '../../db/schema'
import { withTenant, type Principal } from '../../db/tenant'
import { insertJob } from '../../jobs/job-service'
import type { JobContext, TypedJob } from '../../jobs/define-job-contract'
import { IMPORT_JOB_KIND, importJobHandler, type ImportJobInput } from './import-csv'

let t: TestApp
let blobs: BlobStore
beforeAll(async () => {
  t = await buildTestApp()
  blobs = createFsBlobStore(t.blobDir)
})
afterAll(() => t.close())

const adminOf = (m: TestMember): Principal => ({
  orgId: m.orgId,
  userId: m.userId,
  role: 'admin',
  actorType: 'user',
})

/** A CSV of `rows` entities named `<prefix> n`, then `tail` (raw lines, e.g. a bad record). */
function csvOf(prefix: string, rows: number, tail = ''): string {
  const lines = Array.from({ length: rows }, (_, i) => `"${prefix} ${i}",client,"{""n"":${i}}"`)
  return `name,type,data\n${lines.join('\n')}\n${tail}`
}

/**
 * Stores `csv` and queues an import job for `m` that the test app's runner leaves alone (its
 * run_after is an hour away); returns the job as the runner would claim it.
 */
async function storedImport(m: TestMember, csv: string): Promise<TypedJob<ImportJobInput>> {
  const blobKey = `orgs/${m.orgId}/imports/${crypto.randomUUID()}.csv`
  const bytes = new TextEncoder().encode(csv)
  await blobs.putStream(blobKey, [bytes], 'text/csv')
  const input: ImportJobInput = {
    blobKey,
    fileName: 'clients.csv',
    size: bytes.length,
    appId: null,
    queuedInApp: null,
  }
  const job = await withTenant(t.database.db, adminOf(m), async (tx) => {
    const queued = await insertJob(tx, adminOf(m), { kind: IMPORT_JOB_KIND, input })
    await tx
      .update(jobs)
      .set({ runAfter: new Date(Date.now() + 3_600_000) })
      .where(eq(jobs.id, queued.id))
    return queued
  })
  return {
    id: job.id,
    orgId: m.orgId,
    kind: IMPORT_JOB_KIND,
    input,
    attempts: 1,
    maxAttempts: 1,
    createdBy: m.userId,
  }
}

/** A job context whose progress calls `onProgress`. */
function contextOf(onProgress: (message: string) => void = () => {}): JobContext {
  return { signal: new AbortController().signal, progress: (_f, message) => onProgress(message) }
}

async function listed(m: TestMember) {
  const res = await t.app.inject({
    url: `/api/v1/orgs/${m.orgId}/entities?limit=5`,
    headers: m.headers,
  })
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as { items: { name: string }[]; total: number }
}

async function searched(m: TestMember, q: string) {
  const res = await t.app.inject({
    url: `/api/v1/orgs/${m.orgId}/entities?q=${encodeURIComponent(q)}`,
    headers: m.headers,
  })
  return (res.json() as { total: number }).total
}

async function exportedLines(m: TestMember) {
  const res = await t.app.inject({
    url: `/api/v1/orgs/${m.orgId}/entities/export`,
    headers: m.headers,
  })
  return res.body.trim().split('\r\n').length - 1
}

/** Rows of `m`'s organisation in entities, staged ones included (the superuser sees all). */
async function storedRows(m: TestMember) {
  const result = await t.database.db.execute(
    sql`SELECT count(*)::int AS n FROM entities WHERE org_id = ${m.orgId}`,
  )
  return (result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0
}

/** The size in bytes of entities' table alone (`heap`) and with its indexes (`total`). */
async function entitiesBytes() {
  const result = await t.database.db.execute(
    sql`SELECT pg_relation_size('entities')::bigint AS heap,
               pg_total_relation_size('entities')::bigint AS total`,
  )
  const row = (result as unknown as { rows: { heap: string; total: string }[] }).rows[0]
  return { heap: Number(row?.heap), total: Number(row?.total) }
}

describe('the entities import in short transactions', () => {
  it("lets another organisation write between its batches, and hides its rows from its own organisation's list, search and export until it succeeds", async () => {
    const importer = await signedInMember(t, 'Importing Firm')
    const neighbour = await signedInMember(t, 'Neighbour Firm')
    const job = await storedImport(importer, csvOf('Staged', 6000))
    let neighbourDone = false
    let progressAfterNeighbour = 0
    const seenWhileStaging: Promise<[number, number, number]>[] = []
    const neighbourWrite = { started: false, done: Promise.resolve() }
    const result = await importJobHandler({ db: t.database.db, blobs }).run(
      job,
      contextOf((message) => {
        if (!/Imported [1-9]/.test(message)) return
        if (neighbourDone) progressAfterNeighbour += 1
        if (neighbourWrite.started) return
        neighbourWrite.started = true
        neighbourWrite.done = t.app
          .inject({
            method: 'POST',
            url: `/api/v1/orgs/${neighbour.orgId}/entities`,
            headers: neighbour.headers,
            payload: { name: 'Written meanwhile' },
          })
          .then((res) => {
            expect(res.statusCode, res.body).toBe(201)
            neighbourDone = true
          })
        seenWhileStaging.push(
          Promise.all([
            listed(importer).then((page) => page.total + page.items.length),
            searched(importer, 'Staged'),
            exportedLines(importer),
          ]),
        )
      }),
    )
    await neighbourWrite.done
    expect(result).toEqual({ imported: 6000 })
    // The neighbour's write was answered while the import still had batches to write.
    expect(progressAfterNeighbour).toBeGreaterThan(0)
    expect(await Promise.all(seenWhileStaging)).toEqual([[0, 0, 0]])
    const page = await listed(importer)
    expect(page.total).toBe(6000)
    expect(await searched(importer, 'Staged')).toBe(6000)
    expect(await exportedLines(importer)).toBe(6000)
    expect((await listed(neighbour)).total).toBe(1)
  })

  it('keeps nothing of a failed import, counters included, and gives its space back', async () => {
    const m = await signedInMember(t, 'Failing Firm')
    const failOnce = async (prefix: string) => {
      const job = await storedImport(m, csvOf(prefix, 3000, '"",client,\n'))
      await expect(
        importJobHandler({ db: t.database.db, blobs }).run(job, contextOf()),
      ).rejects.toThrow(/Line 3002: The name is empty/)
    }
    const start = await entitiesBytes()
    await failOnce('Warm')
    const afterOne = await entitiesBytes()
    // The table itself is back to its size: the rows' space went back to the file system.
    expect(afterOne.heap).toBeLessThanOrEqual(start.heap + 64 * 1024)
    await failOnce('Doomed')
    expect(await storedRows(m)).toBe(0)
    expect((await listed(m)).total).toBe(0)
    const counters = await withTenant(t.database.db, adminOf(m), (tx) =>
      tx.select().from(entityCounts),
    )
    expect(counters.every((c) => c.entities === 0)).toBe(true)
    // Index pages the first import emptied are reused, not added to: a second failed import
    // of the same size takes no more room than the first left (it took over 1 MB each before).
    const afterTwo = await entitiesBytes()
    expect(afterTwo.heap).toBeLessThanOrEqual(start.heap + 64 * 1024)
    expect(afterTwo.total).toBeLessThanOrEqual(afterOne.total + 256 * 1024)
  })

  it('sweeps what an import that will not run again left staged, at the next import of its organisation', async () => {
    const m = await signedInMember(t, 'Abandoning Firm')
    const abandoned = await storedImport(m, csvOf('Abandoned', 1))
    await withTenant(t.database.db, adminOf(m), async (tx) => {
      await tx.update(jobs).set({ status: 'failed' }).where(eq(jobs.id, abandoned.id))
      await tx.insert(entityImports).values({ jobId: abandoned.id, orgId: m.orgId })
      await tx
        .insert(entities)
        .values(
          ['Left 1', 'Left 2'].map((name) => ({ orgId: m.orgId, name, importJobId: abandoned.id })),
        )
    })
    const job = await storedImport(m, csvOf('Next', 3))
    await expect(
      importJobHandler({ db: t.database.db, blobs }).run(job, contextOf()),
    ).resolves.toEqual({ imported: 3 })
    expect(await storedRows(m)).toBe(3)
    const marks = await withTenant(t.database.db, adminOf(m), (tx) =>
      tx.select().from(entityImports),
    )
    expect(marks).toEqual([])
    expect((await listed(m)).total).toBe(3)
  })
})
