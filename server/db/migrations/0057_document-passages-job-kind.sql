-- Issue 42 (decision 0126), hand-written: the indexing job's kind is named with the glossary's
-- word, 'document-passages' (it was 'document-chunks'). Stored jobs, and the daily rollups that
-- name a job kind ('job:<kind>', migration 0049), are renamed, so a queued or interrupted indexing
-- job still runs and the dashboard's history stays one series.
-- As the job runner's role, whose policies see every organisation's jobs and rollups (also under
-- FORCE RLS), like migration 0019.
SET LOCAL ROLE lexdesk_worker;
--> statement-breakpoint
UPDATE jobs SET kind = 'document-passages' WHERE kind = 'document-chunks';
--> statement-breakpoint
UPDATE activity_daily SET metric = 'job:document-passages' WHERE metric = 'job:document-chunks';
--> statement-breakpoint
RESET ROLE;
--> statement-breakpoint
-- During a rolling upgrade (docs/deploying.md) an instance still on the old code queues
-- 'document-chunks' jobs after this migration has run; no new instance has a handler for that
-- kind, so they would wait forever. Such a row is stored under the new name instead, and a new
-- instance runs it. A later migration drops this once no release queues the old kind.
CREATE FUNCTION jobs_renamed_kind() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.kind := 'document-passages';
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER jobs_renamed_kind BEFORE INSERT ON jobs
  FOR EACH ROW WHEN (NEW.kind = 'document-chunks') EXECUTE FUNCTION jobs_renamed_kind();
