import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../db/client'
import { openTestDatabase } from '../test/test-database'
import { addEmbeddingColumn, forgetVectorColumn, vectorColumn } from './vector-column'

describe('addEmbeddingColumn (pgvector installed after the migrations ran)', () => {
  let database: Database
  beforeAll(async () => {
    database = await openTestDatabase()
    await database.db.execute(sql`alter table doc_chunks drop column embedding`)
  }, 30_000)
  afterAll(() => database.close())

  it('adds the embedding column of the engine’s dimension and its HNSW index', async () => {
    expect((await vectorColumn(database.db)).dim).toBeNull()
    const added = await database.db.transaction((tx) => addEmbeddingColumn(tx, 256))
    expect(added).toBe(true)
    forgetVectorColumn(database.db)
    expect((await vectorColumn(database.db)).dim).toBe(256)
    const index = await database.db.execute(
      sql`select reloptions from pg_class where relname = 'doc_chunks_embedding_idx'`,
    )
    const [row] = (index as unknown as { rows: Array<{ reloptions: string[] }> }).rows
    expect(row?.reloptions).toEqual(['m=24', 'ef_construction=64'])
  })

  it('refuses a dimension that is not a positive integer, before any SQL', async () => {
    await expect(addEmbeddingColumn(database.db, 0)).rejects.toThrow('not a vector dimension: 0')
  })
})
