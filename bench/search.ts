/**
 * Search benchmark (issue 8), on an in-memory PGlite with pgvector: one organisation holding
 * 100,000 passages (1,000 documents of 100 passages; sentences drawn with a seeded generator from
 * the sample contract's words, so texts and vectors are realistic in length and spread) embedded
 * by the local engine.
 * - local embedding throughput (passages/s, one thread, in-process);
 * - hybrid search (vector + full text, RRF, k = 10) p50/p95 over 100 queries;
 * - recall@10 of the HNSW vector scan (m 24, iterative scan, ef_search 100) against an exact scan;
 * - time to the first token of a local chat answer (retrieval included).
 * `BENCH_SEARCH_PASSAGES` changes the corpus size.
 */
import { sql } from 'drizzle-orm'
import { openPglite } from '../server/db/client'
import { withTenant } from '../server/db/tenant'
import { embedLocal } from '../server/ai/embedder/local/local-embedding'
import { wordTable } from '../server/ai/embedder/local/word-table'
import { LocalEmbedder } from '../server/ai/embedder/local-embedder'
import { LocalChat } from '../server/ai/chat/local-chat'
import { WorkerPool } from '../server/workers/worker-pool'
import { hybridSearch, searchByMeaning } from '../server/search/hybrid-search'
import { vectorLiteral } from '../server/search/vector-column'
import { passagesForQuestion, streamAnswer } from '../server/features/assistant/service'
import {
  BENCH_PRINCIPAL as principal,
  corpusTexts,
  loadCorpus,
  percentile,
  SEARCH_PASSAGES as PASSAGES,
  SEARCH_QUERIES as QUERIES,
  seeded,
  sentence,
} from './search-corpus'

type Report = (key: string, value: number | null, unit: string, note?: string) => void

export async function searchBench(report: Report): Promise<void> {
  const random = seeded(42)
  const texts = corpusTexts(random, PASSAGES)
  const table = wordTable()
  const t0 = performance.now()
  const vectors = texts.map((text) => embedLocal(table, text))
  const embedSeconds = (performance.now() - t0) / 1000
  report(
    'search_local_embed_per_s',
    PASSAGES / embedSeconds,
    'passages/s',
    'one thread, ~45 words each',
  )

  const database = await openPglite({})
  const { db } = database
  const pool = new WorkerPool({ threads: 1 })
  const embedder = new LocalEmbedder(pool)
  const { loadSeconds, buildSeconds } = await loadCorpus(db, embedder, texts, vectors)
  report('search_load_rows_per_s', PASSAGES / loadSeconds, 'rows/s', `${PASSAGES} passages`)
  report('search_hnsw_build_s', buildSeconds, 's')

  const queries = Array.from({ length: QUERIES }, () => sentence(random, 8))
  await hybridSearch(db, embedder, principal, { text: queries[0] ?? '', k: 10 }) // warm-up
  const latencies: number[] = []
  for (const text of queries) {
    const started = performance.now()
    await hybridSearch(db, embedder, principal, { text, k: 10 })
    latencies.push(performance.now() - started)
  }
  latencies.sort((a, b) => a - b)
  report('search_hybrid_p50_ms', percentile(latencies, 50), 'ms', `k=10 over ${PASSAGES} passages`)
  report('search_hybrid_p95_ms', percentile(latencies, 95), 'ms')

  let found = 0
  const exactTimes: number[] = []
  const vectorTimes: number[] = []
  for (const text of queries) {
    const vector = embedLocal(table, text)
    const approximateStarted = performance.now()
    const approximate = await searchByMeaning(db, embedder.id, principal, { vector, k: 10 })
    vectorTimes.push(performance.now() - approximateStarted)
    const started = performance.now()
    const exact = await withTenant(db, principal, async (tx) => {
      await tx.execute(sql`select set_config('enable_indexscan', 'off', true)`)
      const res = await tx.execute(
        sql`select id from doc_chunks where org_id = 'bench' order by embedding <=> ${vectorLiteral(vector)}::vector limit 10`,
      )
      return (res as unknown as { rows: Array<{ id: string }> }).rows
    })
    exactTimes.push(performance.now() - started)
    const truth = new Set(exact.map((r) => r.id))
    found += approximate.filter((r) => truth.has(r.id)).length
  }
  exactTimes.sort((a, b) => a - b)
  vectorTimes.sort((a, b) => a - b)
  report('search_vector_p50_ms', percentile(vectorTimes, 50), 'ms', 'HNSW part alone')
  report('search_vector_recall_at_10', found / (QUERIES * 10), '', 'HNSW against an exact scan')
  report('search_exact_p50_ms', percentile(exactTimes, 50), 'ms', 'exact scan, for scale')

  const chat = new LocalChat()
  const deps = { db, embedder, chat }
  const ttft: number[] = []
  for (const text of queries.slice(0, 20)) {
    const started = performance.now()
    const passages = await passagesForQuestion(deps, principal, text, null)
    for await (const token of streamAnswer(deps, [{ role: 'user', content: text }], passages)) {
      if (token) break
    }
    ttft.push(performance.now() - started)
  }
  ttft.sort((a, b) => a - b)
  report('chat_local_first_token_p50_ms', percentile(ttft, 50), 'ms', 'retrieval included')
  await database.close()
  await pool.close()
}
