/**
 * Re-embeds every document's passages with the configured embedding engine (decision 0016):
 *
 *   npm run reembed            (with the server's environment; stop the server first on PGlite)
 *
 * On a PostgreSQL whose migrations ran without pgvector, install pgvector on the server first:
 * this then creates the extension and gives `doc_chunks` its embedding column and index.
 * When the engine's dimension differs from the `doc_chunks.embedding` column, the column is
 * re-typed (its vectors cleared) and its HNSW index rebuilt; vectors of any other engine are
 * cleared; then one 'document-passages' job per document is queued, which the server runs. Searches
 * compare only vectors of the configured engine, so until the jobs finish they fall back to full
 * text for the documents not yet re-embedded, never to mixed vectors.
 */
import { mkdir } from 'node:fs/promises'
import { sql } from 'drizzle-orm'
import { loadConfig } from '../server/config'
import { openDatabase } from '../server/db/client'
import { createEmbedder } from '../server/ai/embedder/create-embedder'
import { WorkerPool } from '../server/workers/worker-pool'
import { PASSAGE_JOB_KIND } from '../server/search/index-document'
import {
  addEmbeddingColumn,
  CREATE_EMBEDDING_INDEX,
  vectorColumn,
} from '../server/search/vector-column'

const config = loadConfig()
await mkdir(config.dataDir, { recursive: true })
const pool = new WorkerPool({ threads: 1 })
const embedder = createEmbedder(config.ai.embed, pool, config.embedDimensions)
const database = await openDatabase(config)
const { db } = database
const { dim } = await vectorColumn(db)
const done = db.transaction(async (tx) => {
  if (dim === null && !(await addEmbeddingColumn(tx, embedder.dim))) {
    throw new Error(
      'this PostgreSQL server has no pgvector extension to install, so search matches words only. Install pgvector on it (for example the postgresql-<version>-pgvector package) and run `npm run reembed` again.',
    )
  }
  if (dim !== null && dim !== embedder.dim) {
    await tx.execute(sql`drop index if exists doc_chunks_embedding_idx`)
    await tx.execute(
      sql.raw(
        `alter table doc_chunks alter column embedding type vector(${embedder.dim}) using null`,
      ),
    )
    await tx.execute(sql`set local maintenance_work_mem = '512MB'`)
    await tx.execute(CREATE_EMBEDDING_INDEX)
  }
  await tx.execute(
    sql`update doc_chunks set embedding = null, embedder = null where embedder is distinct from ${embedder.id}`,
  )
  const queued = await tx.execute(
    sql`insert into jobs (org_id, kind, subject_id, input, created_by, background)
        select org_id, ${PASSAGE_JOB_KIND}, id::text, jsonb_build_object('documentId', id), created_by,
          true
        from documents`,
  )
  const count = (queued as unknown as { rowCount?: number; affectedRows?: number }).rowCount
  console.log(
    `embedder ${embedder.id} (column ${dim ?? 'added'} → ${embedder.dim} dimensions); queued ${count ?? 'all'} documents for re-embedding: start the server to run them`,
  )
})
try {
  await done
} catch (error) {
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exitCode = 1
} finally {
  await database.close()
  await pool.close()
}
