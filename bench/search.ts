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
import { documents, organization } from '../server/db/schema'
import { withTenant, type Principal } from '../server/db/tenant'
import { SAMPLE_CONTRACT } from '../server/test/sample-files'
import { embedLocal } from '../server/ai/embedder/local/local-embedding'
import { wordTable } from '../server/ai/embedder/local/word-table'
import { LocalEmbedder } from '../server/ai/embedder/local-embedder'
import { LocalChat } from '../server/ai/chat/local-chat'
import { WorkerPool } from '../server/workers/worker-pool'
import { replaceChunks } from '../server/search/index-document'
import { hybridSearch, vectorSearch } from '../server/search/hybrid-search'
import { CREATE_EMBEDDING_INDEX, vectorLiteral } from '../server/search/vector-column'
import { retrievePassages, streamAnswer } from '../server/features/assistant/service'

type Report = (key: string, value: number | null, unit: string, note?: string) => void

const PASSAGES = Number(process.env.BENCH_SEARCH_PASSAGES ?? 100_000)
const PER_DOCUMENT = 100
const QUERIES = 100

function seeded(seed: number) {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const WORDS = SAMPLE_CONTRACT.toLowerCase().match(/[a-z]{3,}/g) ?? []
function sentence(random: () => number, words: number): string {
  const out: string[] = []
  for (let i = 0; i < words; i += 1) out.push(WORDS[Math.floor(random() * WORDS.length)] ?? 'term')
  return `${out.join(' ')}.`
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0

export async function searchBench(report: Report): Promise<void> {
  const random = seeded(42)
  const texts = Array.from({ length: PASSAGES }, () =>
    sentence(random, 25 + Math.floor(random() * 40)),
  )
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
  await db.insert(organization).values({ id: 'bench', name: 'Bench', slug: 'bench' })
  await db.execute(sql`alter table documents disable trigger user`)
  const principal: Principal = { orgId: 'bench', userId: null, role: 'member', actorType: 'system' }
  const pool = new WorkerPool({ threads: 1 })
  const embedder = new LocalEmbedder(pool)
  const t1 = performance.now()
  // Bulk load: build the HNSW index once after the rows, as a re-embed of a large firm would.
  await db.execute(sql`drop index doc_chunks_embedding_idx`)
  for (let d = 0; d * PER_DOCUMENT < PASSAGES; d += 1) {
    const slice = texts.slice(d * PER_DOCUMENT, (d + 1) * PER_DOCUMENT)
    let offset = 0
    const chunks = slice.map((text) => {
      const chunk = { start: offset, end: offset + text.length, text }
      offset += text.length + 1
      return chunk
    })
    await withTenant(db, principal, async (tx) => {
      const [row] = await tx
        .insert(documents)
        .values({ orgId: 'bench', title: `Contract ${d}`, content: slice.join(' ') })
        .returning({ id: documents.id })
      await replaceChunks(tx, { orgId: 'bench', appId: null, documentId: row?.id ?? '' }, chunks, {
        embedderId: embedder.id,
        vectors: vectors.slice(d * PER_DOCUMENT, (d + 1) * PER_DOCUMENT),
      })
    })
  }
  const loaded = performance.now()
  // The graph of 100k × 384 floats needs ~200 MB; at the default 64 MB the build spills and
  // takes ~20 minutes here instead of a few.
  await db.execute(sql`set maintenance_work_mem = '512MB'`)
  await db.execute(CREATE_EMBEDDING_INDEX)
  await db.execute(sql`analyze doc_chunks`)
  report(
    'search_load_rows_per_s',
    PASSAGES / ((loaded - t1) / 1000),
    'rows/s',
    `${PASSAGES} passages`,
  )
  report('search_hnsw_build_s', (performance.now() - loaded) / 1000, 's')

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
    const approximate = await vectorSearch(db, embedder.id, principal, { vector, k: 10 })
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
    const passages = await retrievePassages(deps, principal, text, null)
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
