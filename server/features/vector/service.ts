/**
 * Search by meaning over the organisation's passages (issue 8): hybrid search for the library,
 * the spec's `semantic_search` over a given embedding, text embedding for the Vector Store tester,
 * and a document's indexing state. Reads only; chunking runs as the 'document-passages' job.
 */
import { and, desc, eq } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { docChunks, documents, jobs } from '../../db/schema'
import { withTenant, type Principal } from '../../db/tenant'
import { AppError, notFound } from '../../errors/app-error'
import type { Embedder } from '../../ai/embedder/types'
import { PASSAGE_JOB_KIND } from '../../search/index-document'
import { vectorColumn } from '../../search/vector-column'

export type SearchDeps = { db: Db; embedder: Embedder }

/** The spec's 'Provide text to embed.' as a 400 problem. */
export function emptyText(): AppError {
  return new AppError('empty_text', 'Provide text to embed.')
}

/** Embeds one text with the configured engine; 502 when the engine fails. */
export async function embedText(deps: SearchDeps, text: string): Promise<number[]> {
  if (text.trim() === '') throw emptyText()
  try {
    const [vector] = await deps.embedder.embed([text])
    if (!vector) throw new Error('no vector returned')
    return vector
  } catch (error) {
    throw new AppError(
      'embedding_failed',
      'The embedding engine failed. Try again, or ask an administrator to check the server log.',
      {},
      error,
    )
  }
}

/**
 * Parses the spec's `_emb` (a JSON array of numbers as a string). Throws 400 `bad_embedding`
 * with 'Invalid embedding JSON: …' when it does not parse, or when its length is not the
 * dimension of this server's embeddings.
 */
export async function parseEmbedding(deps: SearchDeps, text: string): Promise<number[]> {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new AppError(
      'bad_embedding',
      `Invalid embedding JSON: ${error instanceof Error ? error.message : 'unreadable'}`,
    )
  }
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'number' && Number.isFinite(v)))
    throw new AppError('bad_embedding', 'Invalid embedding JSON: expected an array of numbers')
  const { dim } = await vectorColumn(deps.db)
  const expected = dim ?? deps.embedder.dim
  if (value.length !== expected)
    throw new AppError(
      'bad_embedding',
      `The embedding has ${value.length} numbers; this server's embeddings have ${expected}.`,
    )
  return value as number[]
}

/**
 * The chunking job's progress message, "12 of 340 passages saved" (the handler's own words,
 * server/search/index-document.ts): the passages saved and the document's total, so the reader
 * says "12 of 340" like the other jobs rather than a bare percentage (issue 43).
 */
const SAVED_OF_TOTAL = /^(\d+) of (\d+) passages saved$/

/** `message`'s passages saved and total, or nulls for any other message (or none). */
export function passagesSavedOf(message: string | null): {
  saved: number | null
  total: number | null
} {
  const match = message ? SAVED_OF_TOTAL.exec(message) : null
  return match ? { saved: Number(match[1]), total: Number(match[2]) } : { saved: null, total: null }
}

/**
 * Where a document's passages stand: the latest chunking job, the passages stored, and whether
 * they can be found by meaning (`byMeaning`: false on a PostgreSQL without pgvector, where search
 * matches their words only). `saved` of `total` are the job's passages saved so far and the
 * document's passages in all (null before the job has counted them, or when it reported none).
 */
export async function passageState(db: Db, principal: Principal, documentId: string) {
  const byMeaning = (await vectorColumn(db)).dim !== null
  return withTenant(db, principal, async (tx) => {
    const [document] = await tx
      .select({ id: documents.id })
      .from(documents)
      .where(eq(documents.id, documentId))
    if (!document) throw notFound('Document')
    const [job] = await tx
      .select({
        status: jobs.status,
        error: jobs.error,
        progress: jobs.progress,
        message: jobs.message,
      })
      .from(jobs)
      .where(and(eq(jobs.subjectId, documentId), eq(jobs.kind, PASSAGE_JOB_KIND)))
      .orderBy(desc(jobs.createdAt), desc(jobs.id))
      .limit(1)
    const [stored] = await tx
      .select({ embedder: docChunks.embedder })
      .from(docChunks)
      .where(eq(docChunks.documentId, documentId))
      .limit(1)
    const passages = await tx.$count(docChunks, eq(docChunks.documentId, documentId))
    const status =
      job?.status === 'queued' || job?.status === 'running'
        ? job.status
        : job?.status === 'failed'
          ? 'failed'
          : passages > 0 || job?.status === 'succeeded'
            ? 'indexed'
            : 'none'
    return {
      status: status as 'queued' | 'running' | 'failed' | 'indexed' | 'none',
      progress: job?.progress ?? 0,
      ...passagesSavedOf(job?.message ?? null),
      passages,
      embedder: stored?.embedder ?? null,
      error: job?.status === 'failed' ? job.error : null,
      byMeaning,
    }
  })
}
