-- Decision 0026: the HNSW index of doc_chunks.embedding rebuilt with m = 24 (was 16), so
-- ef_search 100 reaches the recall that m = 16 needed ef_search 150 for, in less time.
-- Self-contained: only where pgvector gave doc_chunks its embedding column (decision 0016); the
-- column's dimension is kept. 512 MB lets a large graph build in memory instead of spilling.
DO $$ BEGIN
  IF EXISTS (SELECT FROM pg_attribute WHERE attrelid = 'doc_chunks'::regclass
             AND attname = 'embedding' AND NOT attisdropped) THEN
    PERFORM set_config('maintenance_work_mem', '512MB', true);
    DROP INDEX IF EXISTS doc_chunks_embedding_idx;
    CREATE INDEX doc_chunks_embedding_idx ON doc_chunks USING hnsw (embedding vector_cosine_ops)
      WITH (m = 24, ef_construction = 64);
  END IF;
END $$;
