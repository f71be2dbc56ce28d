-- Indexing for search is background work (decision 0028): the 'document-chunks' jobs that the
-- trigger on documents queues yield to the user's own jobs (analysis, transcription, import) and
-- never take the last of their organisation's job slots.
CREATE OR REPLACE FUNCTION queue_document_chunks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO jobs (org_id, kind, subject_id, input, created_by, background)
  VALUES (NEW.org_id, 'document-chunks', NEW.id::text,
          jsonb_build_object('documentId', NEW.id), NEW.created_by, true);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- As the job runner's role, whose policy sees every organisation's jobs (also under FORCE RLS).
SET LOCAL ROLE lexdesk_worker;
--> statement-breakpoint
UPDATE jobs SET background = true WHERE kind = 'document-chunks' AND status IN ('queued', 'running');
--> statement-breakpoint
RESET ROLE;
