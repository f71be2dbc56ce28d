/**
 * Hybrid search p50/p95 on PostgreSQL with pgvector's HNSW index (issue 28's bench; target p50 ≤
 * 20 ms on 2 cores): the corpus of bench/search.ts (100,000 passages, `BENCH_SEARCH_PASSAGES`),
 * loaded as the superuser into a database of its own, then searched through the application's
 * `hybridSearch` on a pool of the least-privileged role `lexdesk_login`, as an instance searches
 * (local embedder on a worker thread, tenant transaction, RLS).
 */
import { embedLocal } from '../server/ai/embedder/local/local-embedding'
import { wordTable } from '../server/ai/embedder/local/word-table'
import { LocalEmbedder } from '../server/ai/embedder/local-embedder'
import { openPostgres } from '../server/db/client'
import { hybridSearch } from '../server/search/hybrid-search'
import { WorkerPool } from '../server/workers/worker-pool'
import type { PostgresServer } from '../scripts/server-test/postgres-server'
import * as corpus from './search-corpus'

type Report = (key: string, value: number | null, unit: string, note?: string) => void

/** Loads the corpus into `postgres`'s new database `lexdesk_search` and times hybrid searches. */
export async function serverSearchBench(postgres: PostgresServer, report: Report): Promise<void> {
  await postgres.sql('CREATE DATABASE lexdesk_search')
  const owner = postgres.url('lexdesk_search')
  const random = corpus.seeded(42)
  const texts = corpus.corpusTexts(random, corpus.SEARCH_PASSAGES)
  const table = wordTable()
  const vectors = texts.map((text) => embedLocal(table, text))
  const pool = new WorkerPool({ threads: 1 })
  const loading = await openPostgres(owner)
  const app = await openPostgres(postgres.url('lexdesk_search', 'lexdesk_login'), undefined, owner)
  try {
    const embedder = new LocalEmbedder(pool)
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
    const queries = Array.from({ length: corpus.SEARCH_QUERIES }, () => corpus.sentence(random, 8))
    const search = (text: string) =>
      hybridSearch(app.db, embedder, corpus.BENCH_PRINCIPAL, { text, k: 10 })
    for (const text of queries.slice(0, 5)) await search(text) // warm the pool and the cache
    const latencies: number[] = []
    for (const text of queries) {
      const started = performance.now()
      await search(text)
      latencies.push(performance.now() - started)
    }
    latencies.sort((a, b) => a - b)
    report(
      'server_hybrid_search_p50_ms',
      corpus.percentile(latencies, 50),
      'ms',
      `k=10 over ${corpus.SEARCH_PASSAGES} passages, HNSW (target ≤ 20)`,
    )
    report('server_hybrid_search_p95_ms', corpus.percentile(latencies, 95), 'ms')
  } finally {
    await app.close()
    await loading.close()
    await pool.close()
  }
}
