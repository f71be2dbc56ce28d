/**
 * Hybrid search p50/p95 on PostgreSQL with pgvector's HNSW index (issue 28's bench; target p50 ≤
 * 20 ms on 2 cores): the corpus of bench/search.ts (100,000 passages, `BENCH_SEARCH_PASSAGES`),
 * loaded as the superuser into a database of its own, then searched through the application's
 * `hybridSearch` on a pool of the least-privileged role `lexdesk_login`, as an instance searches
 * (local embedder on a worker thread, tenant transaction, RLS).
 *
 * To iterate without the 6-minute load and HNSW build: `npm run bench -- --only server-search`
 * runs this part alone on a PostgreSQL of its own, and with `BENCH_SERVER_SEARCH_DATA=DIR` that
 * server's data directory is DIR, kept after the run; a later run finding the corpus loaded there
 * (the same `BENCH_SEARCH_PASSAGES`) skips the load and the build and times the searches only
 * (migrations newer than the data still run). `BENCH_SEARCH_PASSAGES=10000` loads a tenth.
 */
import { embedLocal } from '../server/ai/embedder/local/local-embedding'
import { wordTable } from '../server/ai/embedder/local/word-table'
import { LocalEmbedder } from '../server/ai/embedder/local-embedder'
import pg from 'pg'
import { openPostgres } from '../server/db/client'
import { readFileSync } from 'node:fs'
import { sql, type SQL } from 'drizzle-orm'
import type { Db } from '../server/db/client'
import { withTenant } from '../server/db/tenant'
import {
  hybridSearchInOneStatement,
  hybridSearchOnTwoConnections,
  searchHalves,
} from '../server/search/hybrid-search'
import { WorkerPool } from '../server/workers/worker-pool'
import { startLexdeskPostgres, type PostgresServer } from '../scripts/server-test/postgres-server'
import * as corpus from './search-corpus'

type Report = (key: string, value: number | null, unit: string, note?: string) => void

/**
 * The search server's settings: shared buffers that hold the HNSW index (195 MB at 100k
 * passages) and the table (82 MB), as a server sized by PostgreSQL's own advice (a quarter of
 * the memory: ~6 GB here) would; at the default 128 MB every graph walk copies ~2,000 index pages
 * in from the OS cache (decision 90).
 */
export const SEARCH_SERVER_SETTINGS = { shared_buffers: '512MB' }

/**
 * Loads the search's relations into shared buffers (pg_prewarm, PostgreSQL's contrib), as a
 * server that has been answering searches for a while holds them, so the timed queries do not
 * measure a restarted server's first reads (a kept data directory starts cold).
 */
async function prewarm(postgres: PostgresServer): Promise<void> {
  await postgres.sql('CREATE EXTENSION IF NOT EXISTS pg_prewarm', 'lexdesk_search')
  await postgres.sql(
    `SELECT pg_prewarm(c.oid) FROM pg_class c WHERE c.relname IN ('doc_chunks', 'doc_chunks_embedding_idx', 'doc_chunks_tsv_idx', 'doc_chunks_pkey', 'doc_chunks_document_ordinal_idx')`,
    'lexdesk_search',
  )
}

/** CPU milliseconds the server process `pid` has run (Linux's /proc/PID/schedstat, in ns). */
function processCpuMs(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6
}

/**
 * Times each of hybridSearch's halves alone for `queries`, in a tenant transaction with the
 * halves' settings, as `db`'s role: wall milliseconds and the serving backend's CPU milliseconds
 * (read from /proc: the server runs on this machine), which a loaded machine inflates less.
 */
async function timeHalves(
  db: Db,
  embedderId: string,
  queries: string[],
  report: Report,
): Promise<void> {
  const table = wordTable()
  const timed: Record<string, { wall: number[]; cpu: number[] }> = {}
  for (const text of queries) {
    const halves = await searchHalves(
      corpus.BENCH_PRINCIPAL,
      {},
      embedderId,
      { text, k: 10 },
      embedLocal(table, text),
    )
    for (const [name, half] of [
      ['vector', halves.vector],
      ['text', halves.text],
    ] as Array<[string, SQL]>) {
      await withTenant(db, corpus.BENCH_PRINCIPAL, async (tx) => {
        for (const setting of halves.settings) await tx.execute(setting)
        const [backend] = (
          (await tx.execute(sql`select pg_backend_pid() as pid`)) as unknown as {
            rows: Array<{ pid: number }>
          }
        ).rows
        const pid = backend?.pid ?? 0
        const cpu = processCpuMs(pid)
        const started = performance.now()
        await tx.execute(half)
        const figures = (timed[name] ??= { wall: [], cpu: [] })
        figures.wall.push(performance.now() - started)
        figures.cpu.push(processCpuMs(pid) - cpu)
      })
    }
  }
  for (const [name, { wall, cpu }] of Object.entries(timed)) {
    wall.sort((a, b) => a - b)
    cpu.sort((a, b) => a - b)
    report(`server_search_${name}_half_p50_ms`, corpus.percentile(wall, 50), 'ms', 'alone')
    report(
      `server_search_${name}_half_backend_cpu_p50_ms`,
      corpus.percentile(cpu, 50),
      'ms',
      'CPU of the PostgreSQL backend',
    )
  }
}

/** The application role's backends on `lexdesk_search` (the pool's open connections). */
async function searchBackends(postgres: PostgresServer): Promise<number[]> {
  const client = new pg.Client({ connectionString: postgres.url('postgres') })
  await client.connect()
  try {
    const { rows } = await client.query<{ pid: number }>(
      `select pid from pg_stat_activity where datname = 'lexdesk_search' and usename = 'lexdesk_login'`,
    )
    return rows.map((row) => row.pid)
  } finally {
    await client.end()
  }
}

/** Passages of the bench organisation already in `lexdesk_search`; null when there is no such database. */
async function loadedPassages(postgres: PostgresServer): Promise<number | null> {
  const client = new pg.Client({ connectionString: postgres.url('postgres') })
  await client.connect()
  try {
    const found = await client.query(`select 1 from pg_database where datname = 'lexdesk_search'`)
    if (found.rowCount === 0) return null
  } finally {
    await client.end()
  }
  const search = new pg.Client({ connectionString: postgres.url('lexdesk_search') })
  await search.connect()
  try {
    const { rows } = await search.query<{ n: string }>(
      `select count(*) as n from doc_chunks where org_id = 'bench'`,
    )
    return Number(rows[0]?.n ?? 0)
  } finally {
    await search.end()
  }
}

/**
 * Loads the corpus into `postgres`'s database `lexdesk_search` (created here; a database already
 * holding the corpus is searched as it is) and times hybrid searches.
 */
export async function serverSearchBench(postgres: PostgresServer, report: Report): Promise<void> {
  const loaded = await loadedPassages(postgres)
  if (loaded !== null && loaded !== corpus.SEARCH_PASSAGES)
    throw new Error(
      `lexdesk_search holds ${loaded} passages, not ${corpus.SEARCH_PASSAGES}: use another BENCH_SERVER_SEARCH_DATA`,
    )
  if (loaded === null) await postgres.sql('CREATE DATABASE lexdesk_search')
  const owner = postgres.url('lexdesk_search')
  const random = corpus.seeded(42)
  const texts = corpus.corpusTexts(random, corpus.SEARCH_PASSAGES)
  const pool = new WorkerPool({ threads: 1 })
  const loading = await openPostgres(owner)
  const app = await openPostgres(postgres.url('lexdesk_search', 'lexdesk_login'), undefined, owner)
  try {
    const embedder = new LocalEmbedder(pool)
    if (loaded === null) {
      const table = wordTable()
      const vectors = texts.map((text) => embedLocal(table, text))
      const { loadSeconds, buildSeconds } = await corpus.loadCorpus(
        loading.db,
        embedder,
        texts,
        vectors,
      )
      report(
        'server_search_load_rows_per_s',
        corpus.SEARCH_PASSAGES / loadSeconds,
        'rows/s',
        `${corpus.SEARCH_PASSAGES}`,
      )
      report('server_search_hnsw_build_s', buildSeconds, 's', 'PostgreSQL 15, pgvector')
    }
    await prewarm(postgres)
    const queries = Array.from({ length: corpus.SEARCH_QUERIES }, () => corpus.sentence(random, 8))
    // hybridSearch on PostgreSQL runs the halves on two connections; the one statement (PGlite's
    // way) is timed beside it, query by query in alternating order, and their hits compared.
    const paths = {
      two_connections: hybridSearchOnTwoConnections,
      one_statement: hybridSearchInOneStatement,
    }
    const search = (path: keyof typeof paths, text: string) =>
      paths[path](app.db, embedder, corpus.BENCH_PRINCIPAL, { text, k: 10 })
    for (const text of queries.slice(0, 5)) {
      // warm the pool and the cache
      await search('two_connections', text)
      await search('one_statement', text)
    }
    const backends = await searchBackends(postgres)
    const backendsCpu = () => backends.reduce((sum, pid) => sum + processCpuMs(pid), 0)
    const figures = {
      two_connections: { wall: [] as number[], cpu: [] as number[], client: [] as number[] },
      one_statement: { wall: [] as number[], cpu: [] as number[], client: [] as number[] },
    }
    let same = 0
    for (const [i, text] of queries.entries()) {
      const order = Object.keys(paths) as Array<keyof typeof paths>
      if (i % 2 === 1) order.reverse()
      const ids: string[] = []
      for (const path of order) {
        const cpuBefore = backendsCpu()
        const clientBefore = process.cpuUsage()
        const started = performance.now()
        const hits = await search(path, text)
        figures[path].wall.push(performance.now() - started)
        figures[path].cpu.push(backendsCpu() - cpuBefore)
        const client = process.cpuUsage(clientBefore)
        figures[path].client.push((client.user + client.system) / 1000)
        ids.push(hits.map((hit) => hit.id).join())
      }
      if (ids[0] === ids[1]) same++
    }
    for (const [path, { wall, cpu, client }] of Object.entries(figures)) {
      for (const list of [wall, cpu, client]) list.sort((a, b) => a - b)
      const name =
        path === 'two_connections' ? 'server_hybrid_search' : 'server_hybrid_search_one_statement'
      report(
        `${name}_p50_ms`,
        corpus.percentile(wall, 50),
        'ms',
        `k=10 over ${corpus.SEARCH_PASSAGES} passages, HNSW${path === 'two_connections' ? ' (target ≤ 20)' : ''}`,
      )
      report(`${name}_p95_ms`, corpus.percentile(wall, 95), 'ms')
      report(
        `${name}_backend_cpu_p50_ms`,
        corpus.percentile(cpu, 50),
        'ms',
        'CPU of the PostgreSQL backends',
      )
      report(
        `${name}_client_cpu_p50_ms`,
        corpus.percentile(client, 50),
        'ms',
        'CPU of this process (embedding, synonyms, fusion, drivers)',
      )
    }
    report(
      'server_hybrid_search_same_hits',
      same,
      'queries',
      `of ${queries.length}: two connections and one statement`,
    )
    await timeHalves(app.db, embedder.id, queries, report)
  } finally {
    await app.close()
    await loading.close()
    await pool.close()
  }
}

/**
 * `--only server-search`: serverSearchBench alone, on a PostgreSQL of its own whose data directory
 * is `BENCH_SERVER_SEARCH_DATA` when set (kept for the next run) or a temporary one.
 */
export async function serverSearchOnly(report: Report): Promise<void> {
  const postgres = await startLexdeskPostgres({
    keptData: process.env.BENCH_SERVER_SEARCH_DATA,
    settings: SEARCH_SERVER_SETTINGS,
  })
  try {
    await serverSearchBench(postgres, report)
  } finally {
    await postgres.stop()
  }
}
