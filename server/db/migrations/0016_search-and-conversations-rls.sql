-- Issue 8 (decision 0016): row-level security, app references, full text, vectors and the
-- chunking trigger of doc_chunks, conversations and messages. Self-contained: it names tables,
-- never other migrations.
GRANT SELECT, INSERT, UPDATE, DELETE ON doc_chunks TO lexdesk_app;
--> statement-breakpoint
GRANT SELECT, INSERT ON conversations, messages TO lexdesk_app;
--> statement-breakpoint
ALTER TABLE doc_chunks ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE doc_chunks FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE conversations ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE conversations FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE messages ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE messages FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON doc_chunks
  USING (org_id = NULLIF(current_setting('app.org_id', true), ''))
  WITH CHECK (org_id = NULLIF(current_setting('app.org_id', true), ''));
--> statement-breakpoint
CREATE POLICY tenant_isolation ON conversations
  USING (org_id = NULLIF(current_setting('app.org_id', true), ''))
  WITH CHECK (org_id = NULLIF(current_setting('app.org_id', true), ''));
--> statement-breakpoint
CREATE POLICY tenant_isolation ON messages
  USING (org_id = NULLIF(current_setting('app.org_id', true), ''))
  WITH CHECK (org_id = NULLIF(current_setting('app.org_id', true), ''));
--> statement-breakpoint
-- Decision 8: rows name an app of their own organisation or none; deleting the app returns them
-- to the organisation.
ALTER TABLE doc_chunks ADD CONSTRAINT doc_chunks_app_fk FOREIGN KEY (org_id, app_id)
  REFERENCES apps (org_id, id) ON DELETE SET NULL (app_id);
--> statement-breakpoint
ALTER TABLE conversations ADD CONSTRAINT conversations_app_fk FOREIGN KEY (org_id, app_id)
  REFERENCES apps (org_id, id) ON DELETE SET NULL (app_id);
--> statement-breakpoint
ALTER TABLE messages ADD CONSTRAINT messages_app_fk FOREIGN KEY (org_id, app_id)
  REFERENCES apps (org_id, id) ON DELETE SET NULL (app_id);
--> statement-breakpoint
-- Full-text half of the hybrid search: English stemming, GIN index.
ALTER TABLE doc_chunks
  ADD COLUMN tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', content)) STORED;
--> statement-breakpoint
CREATE INDEX doc_chunks_tsv_idx ON doc_chunks USING gin (tsv);
--> statement-breakpoint
-- Vector half: only where pgvector is installed (embedded PGlite always; a PostgreSQL server
-- without it keeps full-text search, see STACK-NOTES and decision 0016). 384 = the local
-- embedder's dimension; `npm run reembed` changes it for another engine.
DO $$ BEGIN
  CREATE EXTENSION IF NOT EXISTS vector;
EXCEPTION WHEN others THEN
  RAISE NOTICE 'pgvector is not available: search by meaning uses full text only';
END $$;
--> statement-breakpoint
DO $$ BEGIN
  IF EXISTS (SELECT FROM pg_extension WHERE extname = 'vector') THEN
    EXECUTE 'ALTER TABLE doc_chunks ADD COLUMN embedding vector(384)';
    EXECUTE 'CREATE INDEX doc_chunks_embedding_idx ON doc_chunks USING hnsw (embedding vector_cosine_ops) WITH (m = 16, ef_construction = 64)';
  END IF;
END $$;
--> statement-breakpoint
-- The seam between the documents feature and search (decision 0016): every new document, and
-- every change of a document's text or app, queues a 'document-chunks' job in the same
-- transaction. The function runs as the caller, so the job row passes the jobs policy.
CREATE FUNCTION queue_document_chunks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO jobs (org_id, kind, subject_id, input, created_by)
  VALUES (NEW.org_id, 'document-chunks', NEW.id::text,
          jsonb_build_object('documentId', NEW.id), NEW.created_by);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER documents_chunks_on_insert AFTER INSERT ON documents
  FOR EACH ROW EXECUTE FUNCTION queue_document_chunks();
--> statement-breakpoint
CREATE TRIGGER documents_chunks_on_update AFTER UPDATE OF content, app_id ON documents
  FOR EACH ROW
  WHEN (OLD.content IS DISTINCT FROM NEW.content OR OLD.app_id IS DISTINCT FROM NEW.app_id)
  EXECUTE FUNCTION queue_document_chunks();
