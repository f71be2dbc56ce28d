/**
 * Organisation export (issue 27): an organisation of 100,000 entities, 2,000 passages (20
 * documents of 100) and 200 MB of files (20 stored originals of 10 MB, random bytes, so deflate
 * gains nothing) is exported with the export job's writer into a disk blob store, reporting
 * `export_s`, `export_files_mb_s` (file MB / s; target ≥ 50) and `export_rss_growth_mb` (peak
 * RSS over the RSS before, sampled every 10 ms; target ≤ 300); then that archive is imported as
 * a new organisation with the import job's code (check, stage, publish), reporting `import_s`
 * and `import_rss_growth_mb` the same way. The database is a PGlite data directory on disk.
 */
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { openPglite } from '../server/db/client'
import { organization, user } from '../server/db/schema'
import { createFsBlobStore } from '../server/blob/fs-blob-store'
import { orgBlobKey } from '../server/blob/blob-keys'
import { blobTarget, writeExportArchive } from '../server/features/archives/export-archive'
import { importArchive, type ImportDeps } from '../server/features/archives/import-job'

type Report = (key: string, value: number | null, unit: string, note?: string) => void

const ENTITIES = 100_000
const DOCUMENTS = 20
const PASSAGES_PER_DOCUMENT = 100
const FILE_BYTES = 10 * 1000 * 1000

/** Ten MB of random bytes in 1 MB chunks (never all in memory). */
async function* randomFile(): AsyncGenerator<Uint8Array> {
  for (let sent = 0; sent < FILE_BYTES; sent += 1_000_000) yield randomBytes(1_000_000)
}

/** Runs the data bench and reports its figures through `report`. */
export async function dataBench(report: Report): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'lexdesk-bench-data-'))
  // On disk, as the server keeps it: an in-memory PGlite holds its data and write-ahead log in
  // the process (the import's WAL alone passed 500 MB), which the RSS figures would count as the
  // import's own memory (decision 0071).
  const database = await openPglite({ dataDir: path.join(dir, 'pglite') })
  const blobs = createFsBlobStore(path.join(dir, 'blobs'))
  const { db } = database
  try {
    const orgId = 'bench-data-org'
    await db.insert(organization).values({ id: orgId, name: 'Bench Data', slug: 'bench-data' })
    await db.execute(sql`insert into entities (org_id, type, name, data)
      select ${orgId}, 'client', 'Client ' || i, jsonb_build_object('n', i, 'city', 'Paris')
      from generate_series(1, ${ENTITIES}) i`)
    for (let d = 0; d < DOCUMENTS; d++) {
      const id = crypto.randomUUID()
      const key = orgBlobKey(orgId, 'documents', id, 'original')
      await blobs.putStream(key, randomFile(), 'application/pdf')
      const content = 'The supplier shall deliver the goods. '.repeat(PASSAGES_PER_DOCUMENT * 10)
      await db.execute(sql`insert into documents (id, org_id, title, content, file_key, file_name, mime_type, size_bytes)
        values (${id}, ${orgId}, ${`Contract ${d}`}, ${content}, ${key}, 'contract.pdf', 'application/pdf', ${FILE_BYTES})`)
      await db.execute(sql`insert into doc_chunks (org_id, document_id, ordinal, content, start_offset, end_offset)
        select ${orgId}, ${id}, i, substr(${content}, i * 380 + 1, 380), i * 380, i * 380 + 380
        from generate_series(0, ${PASSAGES_PER_DOCUMENT - 1}) i`)
    }
    global.gc?.()
    const before = process.memoryUsage.rss()
    let peak = before
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 10)
    const t0 = performance.now()
    const summary = await writeExportArchive(
      { db, blobs },
      { orgId },
      blobTarget(blobs, orgBlobKey(orgId, 'exports', 'bench.zip')),
      {
        includeEmbeddings: false,
        embedderId: 'bench',
        lexdeskVersion: 'bench',
        signal: new AbortController().signal,
        progress: () => undefined,
      },
    ).finally(() => clearInterval(sampler))
    const seconds = (performance.now() - t0) / 1000
    if (summary.counts.entities !== ENTITIES) throw new Error('the export missed entities')
    const fileMb = (DOCUMENTS * FILE_BYTES) / 1e6
    report('export_s', seconds, 's', `${(summary.sizeBytes / 1e6).toFixed(0)} MB archive`)
    report(
      'export_files_mb_s',
      fileMb / seconds,
      'MB/s',
      'files MB / whole export time; target ≥ 50',
    )
    report('export_rss_growth_mb', (peak - before) / 1e6, 'MB', 'peak; target ≤ 300')

    const owner = 'bench-data-owner'
    await db.insert(user).values({ id: owner, name: 'Owner', email: 'owner@bench.test' })
    // The bench runs no job runner: the re-indexing jobs the import queues are counted, not run.
    let queued = 0
    const jobs = {
      enqueue: async () => ({ id: String(++queued) }),
    } as unknown as ImportDeps['jobs']
    global.gc?.()
    const beforeImport = process.memoryUsage.rss()
    peak = beforeImport
    const importSampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 10)
    const t1 = performance.now()
    const imported = await importArchive(
      {
        db,
        blobs,
        jobs,
        engines: { embedder: { id: 'bench' } },
        limits: { importMaxBytes: 20 * 1024 ** 3 },
      },
      { userId: owner, jobId: crypto.randomUUID() },
      { blobKey: orgBlobKey(orgId, 'exports', 'bench.zip'), orgName: 'Bench Import' },
      { signal: new AbortController().signal, progress: () => undefined },
    ).finally(() => clearInterval(importSampler))
    const importSeconds = (performance.now() - t1) / 1000
    if (imported.counts.entities !== ENTITIES) throw new Error('the import missed entities')
    report('import_s', importSeconds, 's', `${queued} documents queued for indexing`)
    report('import_rss_growth_mb', (peak - beforeImport) / 1e6, 'MB', 'peak; target ≤ 300')
  } finally {
    await database.close()
    await rm(dir, { recursive: true, force: true })
  }
}
