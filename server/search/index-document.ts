/**
 * The 'document-passages' job (decision 0016): insertDocument (server/documents/document-writes.ts,
 * decision 41) queues it for every new document, as must any code that changes a document's text;
 * it splits the text into passages and replaces the document's passages a few at a time:
 * embed them with the configured Embedder (on the worker pool for the local engine), save them in
 * one short transaction sent as one message to the database thread's background lane, which
 * requests go ahead of and stop (pausing after one they waited for), and report passages saved /
 * total as the job's progress (decisions 0057, 0082). A
 * document of thousands of passages thus never holds the database for seconds (PGlite runs one
 * transaction at a time: a 3-million-character contract took 14 s in one); searches meanwhile see
 * the passages written so far, never old and new ones mixed, because a newer job for the same
 * document stops this one (decision 0031).
 */
import { setTimeout as delay } from 'node:timers/promises'
import { eq, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../db/client'
import { docChunks, documents } from '../db/schema'
import { withTenant, withTenantReads, type Tx } from '../db/tenant'
import { withTenantBackground } from '../db/with-tenant-background'
import type { Embedder } from '../ai/embedder/types'
import { jobPrincipal } from '../jobs/job-runner'
import type { JobHandlerOf } from '../jobs/define-job-contract'
import { documentPassagesJobContract } from '../jobs/contracts/document-passages-job-contract'
import type { Principal } from '../db/tenant'
import { chunkText, type TextChunk } from './chunk-text'
import { vectorColumn, vectorLiteral } from './vector-column'

export const PASSAGE_JOB_KIND = documentPassagesJobContract.kind

/** Passages embedded per call (progress is reported between batches). */
const EMBED_BATCH = 64
/** Rows per INSERT statement. */
const INSERT_BATCH = 200
/**
 * Most passages per transaction of the job's save phase, each passage its own statement: a
 * request arriving meanwhile waits for the one passage being inserted (the transaction stops after
 * it), whose HNSW insert is about two thirds of its time; the transaction's own work (tenant
 * settings, the document check, BEGIN and COMMIT, one message each way) is shared by all of them
 * (decision 0082).
 */
const SAVE_BATCH = 4
/** Longest pause after a transaction that requests waited for (see saveChunks). */
const MAX_PAUSE_MS = 250

type ChunkTarget = { orgId: string; appId: string | null; documentId: string }
type Embedded = { embedderId: string; vectors: readonly number[][] }

/**
 * Writes `chunks` (with `embeddings`, or none when the database has no vectors) as the passages of
 * document `documentId` inside `tx`, replacing any it had. For bulk loads (benchmark, evaluation);
 * the job writes in short transactions instead.
 */
export async function replaceChunks(
  tx: Tx,
  target: ChunkTarget,
  chunks: readonly TextChunk[],
  embedded: Embedded | null,
): Promise<void> {
  await tx.delete(docChunks).where(eq(docChunks.documentId, target.documentId))
  await insertChunks(tx, target, chunks, embedded, 0)
}

/**
 * The VALUES rows of `chunks` with ordinals from `first`, every value cast so the rows type alike
 * under INSERT … SELECT; `app` is the app id's SQL; `embedded.vectors[i]` is `chunks[i]`'s vector.
 */
function chunkRows(
  target: ChunkTarget,
  app: SQL,
  chunks: readonly TextChunk[],
  embedded: Embedded | null,
  first: number,
): SQL[] {
  return chunks.map((chunk, i) => {
    const vector = embedded?.vectors[i]
    return sql`(${target.orgId}::text, ${app}, ${target.documentId}::uuid, ${first + i}::int,
      ${chunk.text}::text, ${chunk.start}::int, ${chunk.end}::int,
      ${embedded ? embedded.embedderId : null}::text
      ${vector ? sql`, ${vectorLiteral(vector)}::vector` : sql``})`
  })
}

/** The passages' columns, in chunkRows' order. */
const chunkColumns = (embedded: Embedded | null) =>
  sql`(org_id, app_id, document_id, ordinal, content, start_offset, end_offset,
    embedder${embedded ? sql`, embedding` : sql``})`

/** Inserts `chunks` with ordinals from `first`, INSERT_BATCH rows a statement. */
async function insertChunks(
  tx: Tx,
  target: ChunkTarget,
  chunks: readonly TextChunk[],
  embedded: Embedded | null,
  first: number,
): Promise<void> {
  for (let i = 0; i < chunks.length; i += INSERT_BATCH) {
    const part = chunks.slice(i, i + INSERT_BATCH)
    const vectors = embedded && {
      ...embedded,
      vectors: embedded.vectors.slice(i, i + INSERT_BATCH),
    }
    const rows = chunkRows(target, sql`${target.appId}::uuid`, part, vectors, first + i)
    await tx.execute(
      sql`insert into doc_chunks ${chunkColumns(embedded)} values ${sql.join(rows, sql`, `)}`,
    )
  }
}

/** Embeds `texts` in batches of EMBED_BATCH, reporting progress in 0..1. */
export async function embedAll(
  embedder: Embedder,
  texts: readonly string[],
  signal?: AbortSignal,
  onProgress?: (fraction: number) => void,
): Promise<number[][]> {
  const out: number[][] = []
  for (let i = 0; i < texts.length; i += EMBED_BATCH) {
    signal?.throwIfAborted()
    out.push(...(await embedder.embed(texts.slice(i, i + EMBED_BATCH), signal)))
    onProgress?.(Math.min(1, (i + EMBED_BATCH) / texts.length))
  }
  return out
}

/**
 * The job handler: chunk, then embed and save SAVE_BATCH passages at a time. Its progress is
 * passages saved / total (message "N of M passages saved"), so the document page and the jobs API
 * show a true percentage. Its result is `{ chunks, embedder }`.
 */
export function passageJobHandler(deps: {
  db: Db
  embedder: Embedder
}): JobHandlerOf<typeof documentPassagesJobContract> {
  return {
    async run(job, context) {
      const { documentId } = job.input
      const principal = jobPrincipal(job, 'system')
      const [[document]] = await withTenantReads(deps.db, principal, (tx) => [
        tx
          .select({ content: documents.content })
          .from(documents)
          .where(eq(documents.id, documentId)),
      ])
      // Deleted since it was queued: nothing to index.
      if (!document) return { chunks: 0, embedder: null }
      const chunks = chunkText(document.content)
      const { dim } = await vectorColumn(deps.db)
      const canEmbed = dim !== null && dim === deps.embedder.dim
      context.progress(0, `0 of ${chunks.length} passages saved`)
      const embedBatch = canEmbed
        ? async (batch: readonly TextChunk[]) => ({
            embedderId: deps.embedder.id,
            vectors: await embedAll(
              deps.embedder,
              batch.map((c) => c.text),
              context.signal,
            ),
          })
        : async () => null
      const saved = await saveChunks(deps.db, principal, job.id, documentId, chunks, {
        embedBatch,
        signal: context.signal,
        onProgress: (done) =>
          context.progress(
            done / Math.max(1, chunks.length),
            `${done} of ${chunks.length} passages saved`,
          ),
      })
      if (!saved) return { chunks: 0, embedder: null, superseded: true }
      return { chunks: chunks.length, embedder: canEmbed ? deps.embedder.id : null }
    },
  }
}

/**
 * The document's app (`app_id`), or no row when the document is gone or a newer
 * 'document-passages' job for it exists (its text changed since job `jobId` was queued, or a
 * re-embed was asked): that job will write the passages.
 */
const currentTarget = (jobId: string, documentId: string) => sql`
  SELECT d.app_id FROM documents d
  WHERE d.id = ${documentId} AND NOT EXISTS (
    SELECT 1 FROM jobs j JOIN jobs mine ON mine.id = ${jobId}
    WHERE j.kind = ${PASSAGE_JOB_KIND} AND j.subject_id = ${documentId}
      AND (j.created_at, j.id) > (mine.created_at, mine.id))`

/**
 * The embeddings of `chunks`, EMBED_BATCH passages an `embedBatch` call (one call of a remote
 * engine each): `group(at)` resolves with the group holding passage `at` (`from` its first
 * passage), and the next group is embedded (on the worker pool, for the local engine) while this
 * one is saved. Ask in increasing order of `at`.
 */
function embeddingGroups(
  chunks: readonly TextChunk[],
  embedBatch: (batch: readonly TextChunk[]) => Promise<Embedded | null>,
) {
  const start = (from: number) => {
    const embedded = embedBatch(chunks.slice(from, from + EMBED_BATCH))
    embedded.catch(() => {}) // a failure is thrown where the group is awaited
    return { from, size: Math.min(EMBED_BATCH, chunks.length - from), embedded }
  }
  let current = start(0)
  let next: ReturnType<typeof start> | null = null
  return async (at: number) => {
    if (current.size > 0 && at >= current.from + current.size) {
      current = next?.from === at ? next : start(at)
      next = null
    }
    const following = current.from + current.size
    if (!next && following < chunks.length) next = start(following)
    return { from: current.from, size: current.size, embedded: await current.embedded }
  }
}

/**
 * Replaces document `documentId`'s passages with `chunks` in transactions of up to SAVE_BATCH
 * passages, each a message to the database thread's background lane (withTenantBackground): the
 * first also removes the old passages; each checks first that job `jobId` is still the newest for
 * the document and takes the document's current app, then inserts its passages one statement each,
 * and stops after any of them when a request's work arrives (the next transaction goes on from
 * there). Resolves to false when superseded (nothing more is written; the newer job rewrites
 * everything). A cancel or failure mid-way removes what was written, so a document is never left
 * looking indexed with part of its text.
 */
async function saveChunks(
  db: Db,
  principal: Principal,
  jobId: string,
  documentId: string,
  chunks: readonly TextChunk[],
  options: {
    embedBatch: (batch: readonly TextChunk[]) => Promise<Embedded | null>
    signal: AbortSignal
    onProgress: (done: number) => void
  },
): Promise<boolean> {
  const group = embeddingGroups(chunks, options.embedBatch)
  const chunkTarget = { orgId: principal.orgId, appId: null, documentId }
  try {
    let at = 0
    do {
      options.signal.throwIfAborted()
      const { from, size, embedded } = await group(at)
      // Within one embedding group, so that one transaction's vectors come from one call.
      const batch = chunks.slice(at, Math.min(at + SAVE_BATCH, from + size))
      const target = currentTarget(jobId, documentId)
      const checks = [
        // Locked against changes of its app until the transaction ends.
        sql`${target} FOR SHARE OF d`,
        ...(at === 0
          ? [sql`DELETE FROM doc_chunks WHERE document_id = ${documentId} AND EXISTS (${target})`]
          : []),
      ]
      const inserts = batch.map((chunk, i) => {
        const vector = embedded && {
          ...embedded,
          vectors: embedded.vectors.slice(at - from + i, at - from + i + 1),
        }
        const [row] = chunkRows(chunkTarget, sql`(${target})`, [chunk], vector, at + i)
        return sql`INSERT INTO doc_chunks ${chunkColumns(vector)}
          SELECT v.* FROM (VALUES ${row}) v WHERE EXISTS (${target})`
      })
      const run = await withTenantBackground(db, principal, [...checks, ...inserts], {
        mayStopAfter: checks.length + 1,
      })
      if ((run.results[0]?.rows.length ?? 0) === 0) return false
      at += run.results.length - checks.length
      options.onProgress(at)
      // Requests go first anyway (the lane); when some were waiting, leaving the database to them
      // for as long as this transaction held it lets their next statements in too (decision 0057).
      if (run.contended) await delay(Math.min(MAX_PAUSE_MS, run.heldMs))
    } while (at < chunks.length)
    return true
  } catch (error) {
    await withTenant(db, principal, (tx) =>
      tx.execute(sql`DELETE FROM doc_chunks WHERE document_id = ${documentId}
        AND EXISTS (${currentTarget(jobId, documentId)})`),
    )
    throw error
  }
}
