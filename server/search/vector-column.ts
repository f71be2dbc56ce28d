/**
 * Whether `doc_chunks.embedding` exists (pgvector installed when the migrations ran, decision
 * 0016) and its dimension. Read once per database handle.
 */
import { sql } from 'drizzle-orm'
import type { Db } from '../db/client'

export interface VectorColumn {
  /** Dimension of `embedding`, or null when the database has no pgvector. */
  dim: number | null
}

const cache = new WeakMap<Db, Promise<VectorColumn>>()

export function vectorColumn(db: Db): Promise<VectorColumn> {
  let found = cache.get(db)
  if (!found) {
    found = db
      .execute(
        sql`select atttypmod as dim from pg_attribute
            where attrelid = 'doc_chunks'::regclass and attname = 'embedding' and not attisdropped`,
      )
      .then((res) => {
        const row = (res as unknown as { rows: Array<{ dim: number }> }).rows[0]
        return { dim: row ? Number(row.dim) : null }
      })
    cache.set(db, found)
  }
  return found
}

/** Forgets what was read (after `npm run reembed` changed the column). */
export function forgetVectorColumn(db: Db): void {
  cache.delete(db)
}

/** pgvector's text form of a vector: '[0.1,0.2,…]'. */
export function vectorLiteral(vector: readonly number[]): string {
  return `[${vector.join(',')}]`
}

/**
 * Gives `doc_chunks` an embedding column of `dim` dimensions and its HNSW index, on a database
 * whose migrations ran without pgvector (decision 0016) once pgvector has been installed on its
 * server: creates the extension, adds the column, builds the index (in `tx`, so all or nothing).
 * Returns false, changing nothing, when the server has no pgvector to create. Throws PostgreSQL's
 * error when the extension exists on the server but this role may not create it.
 */
export async function addEmbeddingColumn(tx: Pick<Db, 'execute'>, dim: number): Promise<boolean> {
  if (!Number.isInteger(dim) || dim < 1) throw new Error(`not a vector dimension: ${dim}`)
  const available = await tx.execute(
    sql`select 1 from pg_available_extensions where name = 'vector'`,
  )
  if ((available as unknown as { rows: unknown[] }).rows.length === 0) return false
  await tx.execute(sql`create extension if not exists vector`)
  await tx.execute(sql.raw(`alter table doc_chunks add column embedding vector(${dim})`))
  await tx.execute(sql`set local maintenance_work_mem = '512MB'`)
  await tx.execute(CREATE_EMBEDDING_INDEX)
  return true
}

/**
 * Builds the HNSW index of `doc_chunks.embedding` (after a bulk load or a re-typing of the
 * column): m = 24, ef_construction = 64, as migration search-hnsw-m24 (decision 26). Give the
 * session ~512 MB of maintenance_work_mem first, or a large graph spills and builds far slower.
 */
export const CREATE_EMBEDDING_INDEX = sql`create index doc_chunks_embedding_idx on doc_chunks
  using hnsw (embedding vector_cosine_ops) with (m = 24, ef_construction = 64)`
