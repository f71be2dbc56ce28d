/**
 * Entities benchmark (issue 9), in process on an in-memory PGlite holding 100,000 entities of one
 * organisation (names from word lists, five types, small JSON data):
 * - server time (the list service: both statements in one tenant transaction; no HTTP) of a page
 *   of 50 with a search and a two-column sort, p50/p95 over LIST_RUNS runs with rotating search
 *   words and offsets (target p50 ≤ 20 ms); the same for a sort by a key inside data;
 * - CSV import of 10,000 rows through the import job (stored file → papaparse → one
 *   transaction), wall time (target ≤ 5 s) and the process's peak RSS;
 * - streamed CSV export of the 100,000 entities: time, bytes and peak RSS growth over the RSS
 *   before it (target ≤ 100 MB).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { eq, sql } from 'drizzle-orm'
import { openPglite, type Db } from '../server/db/client'
import { entities, jobs, organization } from '../server/db/schema'
import { withTenant, type Principal } from '../server/db/tenant'
import { createFsBlobStore } from '../server/blob/fs-blob-store'
import { listEntities } from '../server/features/entities/service'
import { exportEntitiesCsv } from '../server/features/entities/export-csv'
import {
  importFileSink,
  importJobHandler,
  startImport,
  type ImportJobInput,
} from '../server/features/entities/import-csv'
import { JobRunner } from '../server/jobs/job-runner'
import { JOB_CATALOGUE, type AppJobCatalogue } from '../server/job-catalogue'
import { csvLine } from '../server/http/csv-line'

type Report = (key: string, value: number | null, unit: string, note?: string) => void

const ENTITIES = 100_000
const IMPORT_ROWS = 10_000
const LIST_RUNS = 200
const WORDS = ['North', 'Contoso', 'Fabrikam', 'Acme', 'Globex', 'Initech', 'Umbrella', 'Stark']
const SUFFIXES = ['Traders', 'Legal', 'Holdings', 'Partners', 'Group', 'Labs', 'Capital']
const TYPES = ['customer', 'project', 'lead', 'matter', 'counterparty']
const CITIES = ['London', 'Paris', 'Berlin', 'Madrid', 'Rome', 'Vienna']

function entityAt(i: number) {
  return {
    name: `${WORDS[i % WORDS.length]} ${SUFFIXES[Math.floor(i / WORDS.length) % SUFFIXES.length]} ${i}`,
    type: TYPES[(i * 3) % TYPES.length] ?? 'item',
    data: { priority: i % 10, city: CITIES[i % CITIES.length], ref: `R-${i}` },
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0
}

/** Runs `fn` while sampling RSS every 5 ms; returns its result, time and the highest RSS seen. */
async function measured<T>(fn: () => Promise<T>) {
  let peak = process.memoryUsage.rss()
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5)
  const t0 = performance.now()
  try {
    const value = await fn()
    return { value, ms: performance.now() - t0, peak: Math.max(peak, process.memoryUsage.rss()) }
  } finally {
    clearInterval(timer)
  }
}

async function timeList(
  db: Db,
  principal: Principal,
  query: (run: number) => Record<string, unknown>,
) {
  const times: number[] = []
  for (let run = 0; run < LIST_RUNS + 20; run += 1) {
    const t0 = performance.now()
    const page = await listEntities(db, principal, {
      limit: 50,
      offset: 0,
      ...query(run),
    })
    if (run >= 20) times.push(performance.now() - t0) // the first 20 warm up
    if (page.items.length === 0) throw new Error('the benchmark query found nothing')
  }
  return times.sort((a, b) => a - b)
}

/** Runs the benchmark and reports its figures. */
export async function entitiesBench(report: Report): Promise<void> {
  const database = await openPglite({})
  const blobDir = await mkdtemp(path.join(os.tmpdir(), 'lexdesk-bench-entities-'))
  const { db } = database
  try {
    const orgId = 'bench-org'
    await db.insert(organization).values({ id: orgId, name: 'Bench Firm', slug: 'bench-firm' })
    const principal: Principal = { orgId, userId: null, role: 'owner', actorType: 'system' }
    for (let at = 0; at < ENTITIES; at += 2000) {
      const rows = Array.from({ length: 2000 }, (_, j) => ({ ...entityAt(at + j), orgId }))
      await withTenant(db, principal, (tx) => tx.insert(entities).values(rows))
    }
    await db.execute(sql`analyze entities`)

    const list = (query: (run: number) => Record<string, unknown>) =>
      timeList(db, principal, query).then((t) => ({
        p50: percentile(t, 0.5),
        p95: percentile(t, 0.95),
      }))
    const searched = await list((run) => ({
      q: WORDS[run % WORDS.length]?.toLowerCase().slice(0, 4),
      sort: 'type:asc,name:desc',
      offset: (run % 5) * 50,
    }))
    report(
      'entities_list_broad_search_p50_ms',
      searched.p50,
      'ms',
      `search matching 1 row in 8 (12,500) + type asc, name desc over ${ENTITIES}; p95 ${searched.p95.toFixed(1)} ms`,
    )
    // A name fragment as people type it to find one client: a few dozen matches.
    const typical = await list((run) => ({
      q: `${WORDS[run % WORDS.length]} ${SUFFIXES[Math.floor(run / WORDS.length) % SUFFIXES.length]} ${10 + (run % 90)}`.toLowerCase(),
      sort: 'type:asc,name:desc',
    }))
    report(
      'entities_list_p50_ms',
      typical.p50,
      'ms',
      `search for a name fragment (e.g. "acme legal 37", ~20 matches) + type asc, name desc; target ≤ 20`,
    )
    report('entities_list_p95_ms', typical.p95, 'ms')
    const unfiltered = await list((run) => ({ sort: 'type:asc,name:asc', offset: (run % 5) * 50 }))
    report(
      'entities_list_nosearch_p50_ms',
      unfiltered.p50,
      'ms',
      `no search, type asc, name asc; p95 ${unfiltered.p95.toFixed(1)} ms`,
    )
    const byData = await list((run) => ({
      sort: 'data.priority:desc,name:asc',
      offset: (run % 5) * 50,
    }))
    report(
      'entities_list_data_sort_p50_ms',
      byData.p50,
      'ms',
      `sort by data.priority (bounded top-N scan); p95 ${byData.p95.toFixed(1)} ms`,
    )

    const blobs = createFsBlobStore(blobDir)
    const importer = importJobHandler({ db, blobs })
    // Queues only (never started): the bench runs the import itself, to time it alone.
    const queue = new JobRunner<AppJobCatalogue>({
      db,
      log: console,
      catalogue: JOB_CATALOGUE,
    })
    const csv = [csvLine(['name', 'type', 'data'])]
    for (let i = 0; i < IMPORT_ROWS; i += 1) {
      const e = entityAt(ENTITIES + i)
      csv.push(csvLine([e.name, e.type, e.data]))
    }
    const imported = await measured(async () => {
      const stored = await importFileSink(blobs, orgId).store({
        chunks: Readable.from([Buffer.from(csv.join(''))]),
        fileName: 'bench.csv',
        mimeType: 'text/csv',
      })
      const job = await startImport({ db, blobs, jobs: queue }, principal, {
        ...stored,
        appId: null,
      })
      return importer.run(
        {
          id: job.id,
          orgId,
          kind: job.kind,
          input: await jobInput(db, principal, job.id),
          attempts: 1,
          maxAttempts: 1,
          createdBy: null,
        },
        { signal: new AbortController().signal, progress: () => {} },
      )
    })
    if ((imported.value as { imported: number }).imported !== IMPORT_ROWS)
      throw new Error('import lost rows')
    report('entities_import_10k_ms', imported.ms, 'ms', 'target ≤ 5000')
    report(
      'entities_import_peak_rss_mb',
      imported.peak / 1024 / 1024,
      'MB',
      'whole process, PGlite included',
    )

    const before = process.memoryUsage.rss()
    let bytes = 0
    const exported = await measured(async () => {
      for await (const chunk of exportEntitiesCsv(db, principal, {}))
        bytes += Buffer.byteLength(chunk)
    })
    report(
      'entities_export_110k_ms',
      exported.ms,
      'ms',
      `${(bytes / 1024 / 1024).toFixed(1)} MB of CSV`,
    )
    report(
      'entities_export_rss_growth_mb',
      (exported.peak - before) / 1024 / 1024,
      'MB',
      'target ≤ 100',
    )
  } finally {
    await database.close()
    await rm(blobDir, { recursive: true, force: true })
  }
}

/** The stored input of job `jobId` (as the runner would hand it over). */
async function jobInput(db: Db, principal: Principal, jobId: string) {
  const [row] = await withTenant(db, principal, (tx) =>
    tx.select({ input: jobs.input }).from(jobs).where(eq(jobs.id, jobId)),
  )
  return row?.input as ImportJobInput
}
