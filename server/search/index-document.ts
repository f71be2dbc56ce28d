/**
 * The 'document-chunks' job (decision 0016): insertDocument (server/documents/document-writes.ts,
 * decision 41) queues it for every new document, as must any code that changes a document's text;
 * it splits the text into passages and replaces the document's passages SAVE_BATCH at a time:
 * embed a batch with the configured Embedder (on the worker pool for the local engine), save it in
 * one short transaction, report passages saved / total as the job's progress (decision 0057). A
 * document of thousands of passages thus never holds the database for seconds (PGlite runs one
 * transaction at a time: a 3-million-character contract took 14 s in one); searches meanwhile see
 * the passages written so far, never old and new ones mixed, because a newer job for the same
 * document stops this one (decision 0031).
 */
import { setTimeout as delay } from 'node:timers/promises'
import { eq, sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import { docChunks, documents } from '../db/schema'
import { withTenant, type Tx } from '../db/tenant'
import type { Embedder } from '../ai/embedder/types'
import { z } from 'zod'
import { jobPrincipal } from '../jobs/job-runner'
import { defineJob, type JobHandler } from '../jobs/define-job'
import type { Principal } from '../db/tenant'
import { chunkText, type TextChunk } from './chunk-text'
import { vectorColumn, vectorLiteral } from './vector-column'

export const CHUNK_JOB_KIND = 'document-chunks' as const

/** Passages embedded per call (progress is reported between batches). */
const EMBED_BATCH = 64
/** Rows per INSERT statement. */
const INSERT_BATCH = 200
/**
 * Rows per transaction of the job's save phase: ~0.04 s of PGlite work idle, ~0.15 s on a loaded
 * machine (each row also enters the HNSW index); a request arriving meanwhile waits at most that.
 */
const SAVE_BATCH = 25
/** Longest pause between two saved batches (see saveChunks). */
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
 * Inserts `chunks` with ordinals from `first`; `embedded.vectors[i]` is the vector of `chunks[i]`.
 */
async function insertChunks(
  tx: Tx,
  target: ChunkTarget,
  chunks: readonly TextChunk[],
  embedded: Embedded | null,
  first: number,
): Promise<void> {
  for (let i = 0; i < chunks.length; i += INSERT_BATCH) {
    const values = chunks.slice(i, i + INSERT_BATCH).map((chunk, j) => {
      const ordinal = first + i + j
      const vector = embedded?.vectors[i + j]
      return sql`(${target.orgId}, ${target.appId}::uuid, ${target.documentId}::uuid, ${ordinal},
        ${chunk.text}, ${chunk.start}, ${chunk.end}, ${embedded ? embedded.embedderId : null}
        ${vector ? sql`, ${vectorLiteral(vector)}::vector` : sql``})`
    })
    await tx.execute(
      sql`insert into doc_chunks (org_id, app_id, document_id, ordinal, content, start_offset,
            end_offset, embedder${embedded ? sql`, embedding` : sql``})
          values ${sql.join(values, sql`, `)}`,
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

/** The input of a 'document-chunks' job (written by the SQL trigger, migrations 0016/0019). */
const ChunkJobInput = z.object({ documentId: z.string().uuid() })

/** Passages written and the embedder used; `superseded` when a newer job took over. */
const ChunkJobResult = z
  .object({
    chunks: z.number().int(),
    embedder: z.string().nullable(),
    superseded: z.boolean().optional(),
  })
  .meta({ id: 'DocumentChunksJobResult' })

/**
 * The job handler: chunk, then embed and save SAVE_BATCH passages at a time. Its progress is
 * passages saved / total (message "N of M passages saved"), so the document page and the jobs API
 * show a true percentage. Its result is `{ chunks, embedder }`.
 */
export function chunkJobHandler(deps: {
  db: Db
  embedder: Embedder
}): JobHandler<z.output<typeof ChunkJobInput>, z.input<typeof ChunkJobResult>> {
  return {
    async run(job, context) {
      const { documentId } = job.input
      const principal = jobPrincipal(job, 'system')
      const [document] = await withTenant(deps.db, principal, (tx) =>
        tx
          .select({ content: documents.content })
          .from(documents)
          .where(eq(documents.id, documentId)),
      )
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

/** The 'document-chunks' job kind; background work that yields to the user's own jobs. */
export const chunkJob = defineJob({
  kind: CHUNK_JOB_KIND,
  input: ChunkJobInput,
  result: ChunkJobResult,
  background: true,
  handler: (services: { db: Db; engines: { embedder: Embedder } }) =>
    chunkJobHandler({ db: services.db, embedder: services.engines.embedder }),
})

/**
 * The document's app, locked against changes until the transaction ends, or null when the
 * document is gone or a newer 'document-chunks' job for it exists (its text changed since job
 * `jobId` was queued, or a re-embed was asked): that job will write the passages.
 */
async function currentTarget(tx: Tx, jobId: string, documentId: string) {
  const result = await tx.execute(sql`
    SELECT d.app_id FROM documents d
    WHERE d.id = ${documentId} AND NOT EXISTS (
      SELECT 1 FROM jobs j JOIN jobs mine ON mine.id = ${jobId}
      WHERE j.kind = ${CHUNK_JOB_KIND} AND j.subject_id = ${documentId}
        AND (j.created_at, j.id) > (mine.created_at, mine.id))
    FOR SHARE OF d`)
  const [row] = (result as unknown as { rows: { app_id: string | null }[] }).rows
  return row ? { appId: row.app_id } : null
}

/**
 * Replaces document `documentId`'s passages with `chunks` in transactions of SAVE_BATCH rows: the
 * first also removes the old passages; each checks first that job `jobId` is still the newest for
 * the document and takes the document's current app. Resolves to false when superseded (nothing
 * more is written; the newer job rewrites everything). A cancel or failure mid-way removes what was
 * written, so a document is never left looking indexed with part of its text.
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
  try {
    for (let at = 0; at === 0 || at < chunks.length; at += SAVE_BATCH) {
      options.signal.throwIfAborted()
      const batch = chunks.slice(at, at + SAVE_BATCH)
      const embedded = await options.embedBatch(batch)
      const started = performance.now()
      const written = await withTenant(db, principal, async (tx) => {
        const target = await currentTarget(tx, jobId, documentId)
        if (!target) return false
        if (at === 0) await tx.delete(docChunks).where(eq(docChunks.documentId, documentId))
        await insertChunks(
          tx,
          { ...target, orgId: principal.orgId, documentId },
          batch,
          embedded,
          at,
        )
        return true
      })
      if (!written) return false
      options.onProgress(Math.min(chunks.length, at + SAVE_BATCH))
      // PGlite runs one transaction at a time: pausing as long as the batch held the database
      // leaves the other half to requests (decision 0057), so indexing never starves a list.
      await delay(Math.min(MAX_PAUSE_MS, performance.now() - started))
    }
    return true
  } catch (error) {
    await withTenant(db, principal, async (tx) => {
      if (await currentTarget(tx, jobId, documentId))
        await tx.delete(docChunks).where(eq(docChunks.documentId, documentId))
    })
    throw error
  }
}
