/**
 * The search benchmarks' corpus (bench/search.ts on PGlite, bench/server.ts on PostgreSQL): one
 * organisation `bench` holding `passages` passages in documents of PER_DOCUMENT, sentences drawn
 * with a seeded generator from the sample contract's words (realistic in length and spread),
 * embedded by the local engine, loaded through the app's own `replaceChunks`, then HNSW-indexed.
 */
import { sql } from 'drizzle-orm'
import type { Db } from '../server/db/client'
import { documents, organization } from '../server/db/schema'
import { withTenant, type Principal } from '../server/db/tenant'
import { SAMPLE_CONTRACT } from '../server/test/sample-files'
import type { LocalEmbedder } from '../server/ai/embedder/local-embedder'
import { replaceChunks } from '../server/search/index-document'
import { CREATE_EMBEDDING_INDEX } from '../server/search/vector-column'

const PER_DOCUMENT = 100

/** Passages of the corpus: 100,000, or `BENCH_SEARCH_PASSAGES`. */
export const SEARCH_PASSAGES = Number(process.env.BENCH_SEARCH_PASSAGES ?? 100_000)

/** Searches timed per run (after a warm-up). */
export const SEARCH_QUERIES = 100

/** The benchmarks' tenant: a system principal of the organisation `bench`. */
export const BENCH_PRINCIPAL: Principal = {
  orgId: 'bench',
  userId: null,
  role: 'member',
  actorType: 'system',
}

/** A seeded generator of numbers in [0, 1) (mulberry32), so every run draws the same corpus. */
export function seeded(seed: number): () => number {
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

/** A sentence of `words` words of the sample contract, drawn with `random`. */
export function sentence(random: () => number, words: number): string {
  const out: string[] = []
  for (let i = 0; i < words; i += 1) out.push(WORDS[Math.floor(random() * WORDS.length)] ?? 'term')
  return `${out.join(' ')}.`
}

/** `count` passages of 25 to 64 words each. */
export function corpusTexts(random: () => number, count: number): string[] {
  return Array.from({ length: count }, () => sentence(random, 25 + Math.floor(random() * 40)))
}

/** The `sorted` values' p-th percentile (nearest rank). */
export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0

/**
 * Loads `texts` with their `vectors` as the organisation `bench`'s documents on `db`, which must
 * connect as a superuser or the tables' owner (it drops the HNSW index and disables the documents'
 * triggers for the bulk load), then builds the index once, as a re-embed of a large firm would.
 * Answers the load's and the build's seconds.
 */
export async function loadCorpus(
  db: Db,
  embedder: LocalEmbedder,
  texts: string[],
  vectors: number[][],
): Promise<{ loadSeconds: number; buildSeconds: number }> {
  await db.insert(organization).values({ id: 'bench', name: 'Bench', slug: 'bench' })
  await db.execute(sql`alter table documents disable trigger user`)
  const started = performance.now()
  await db.execute(sql`drop index doc_chunks_embedding_idx`)
  for (let d = 0; d * PER_DOCUMENT < texts.length; d += 1) {
    const slice = texts.slice(d * PER_DOCUMENT, (d + 1) * PER_DOCUMENT)
    let offset = 0
    const chunks = slice.map((text) => {
      const chunk = { start: offset, end: offset + text.length, text }
      offset += text.length + 1
      return chunk
    })
    await withTenant(db, BENCH_PRINCIPAL, async (tx) => {
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
  return {
    loadSeconds: (loaded - started) / 1000,
    buildSeconds: (performance.now() - loaded) / 1000,
  }
}
