/**
 * The 'document-chunks' job (decision 0016): a trigger on `documents` queues it for every new
 * document and every change of its text or app; it splits the text into passages, embeds them
 * with the configured Embedder (on the worker pool for the local engine) and replaces the
 * document's passages in one tenant transaction, so a search sees the old set or the new one,
 * never a mix.
 */
import { eq, sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import { docChunks, documents } from '../db/schema'
import { withTenant, type Tx } from '../db/tenant'
import type { Embedder } from '../ai/embedder/types'
import { jobPrincipal, type JobHandler } from '../jobs/job-runner'
import { chunkText, type TextChunk } from './chunk-text'
import { vectorColumn, vectorLiteral } from './vector-column'

export const CHUNK_JOB_KIND = 'document-chunks'

/** Passages embedded per call (progress is reported between batches). */
const EMBED_BATCH = 64
/** Rows per INSERT statement. */
const INSERT_BATCH = 200

/**
 * Writes `chunks` (with `embeddings`, or none when the database has no vectors) as the passages of
 * document `documentId` inside `tx`, replacing any it had.
 */
export async function replaceChunks(
  tx: Tx,
  target: { orgId: string; appId: string | null; documentId: string },
  chunks: readonly TextChunk[],
  embedded: { embedderId: string; vectors: readonly number[][] } | null,
): Promise<void> {
  await tx.delete(docChunks).where(eq(docChunks.documentId, target.documentId))
  for (let i = 0; i < chunks.length; i += INSERT_BATCH) {
    const values = chunks.slice(i, i + INSERT_BATCH).map((chunk, j) => {
      const ordinal = i + j
      const vector = embedded?.vectors[ordinal]
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

/** Embeds `texts` in batches, reporting progress in 0..1. */
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

/** The job handler: chunk, embed, replace. Its result is `{ chunks, embedder }`. */
export function chunkJobHandler(deps: { db: Db; embedder: Embedder }): JobHandler {
  return {
    kind: CHUNK_JOB_KIND,
    async run(job, context) {
      const { documentId } = job.input as { documentId: string }
      const principal = jobPrincipal(job, 'system')
      context.progress(0.02, 'Reading the document')
      const [document] = await withTenant(deps.db, principal, (tx) =>
        tx
          .select({ content: documents.content, appId: documents.appId })
          .from(documents)
          .where(eq(documents.id, documentId)),
      )
      // Deleted since it was queued: nothing to index.
      if (!document) return { chunks: 0, embedder: null }
      const chunks = chunkText(document.content)
      const { dim } = await vectorColumn(deps.db)
      const canEmbed = dim !== null && dim === deps.embedder.dim
      context.progress(0.05, `Embedding ${chunks.length} passages`)
      const vectors = canEmbed
        ? await embedAll(
            deps.embedder,
            chunks.map((c) => c.text),
            context.signal,
            (f) => context.progress(0.05 + f * 0.85, `Embedding ${chunks.length} passages`),
          )
        : null
      context.progress(0.92, 'Saving the passages')
      await withTenant(deps.db, principal, (tx) =>
        replaceChunks(
          tx,
          { orgId: job.orgId, appId: document.appId, documentId },
          chunks,
          vectors ? { embedderId: deps.embedder.id, vectors } : null,
        ),
      )
      return { chunks: chunks.length, embedder: vectors ? deps.embedder.id : null }
    },
  }
}
