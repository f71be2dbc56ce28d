-- Issue 24 (decision 0052), hand-written: changes come from the database itself. A statement-level
-- trigger on each tenant table of the realtime allow-list (server/realtime/realtime-tables.ts; a
-- test checks both name the same tables) announces each statement's changed rows on channel
-- 'lexdesk_changes', one notification per (organisation, app) of the rows: table, operation,
-- org_id, app_id (the column named by the trigger's argument, '' when the table has none), the
-- row count and their ids (null past 100, to stay far below NOTIFY's 8,000-byte payload). NOTIFY
-- is sent at COMMIT, never for a rolled-back change. Sessions announce their end on
-- 'lexdesk_sessions' (the session's id), so a realtime socket of a signed-out session closes.
CREATE OR REPLACE FUNCTION lexdesk_notify_change() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  changed record;
BEGIN
  FOR changed IN EXECUTE format(
    'SELECT org_id::text AS org_id, %s AS app_id, count(*) AS n, (array_agg(id::text))[1:100] AS ids FROM %I GROUP BY 1, 2',
    CASE WHEN TG_ARGV[0] = '' THEN 'NULL::text' ELSE format('%I::text', TG_ARGV[0]) END,
    CASE WHEN TG_OP = 'DELETE' THEN 'old_rows' ELSE 'new_rows' END)
  LOOP
    PERFORM pg_notify('lexdesk_changes', json_build_object(
      'table', TG_TABLE_SCHEMA || '.' || TG_TABLE_NAME,
      'op', lower(TG_OP),
      'org_id', changed.org_id,
      'app_id', changed.app_id,
      'count', changed.n,
      'ids', CASE WHEN changed.n <= 100 THEN to_json(changed.ids) END)::text);
  END LOOP;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "documents_notify_insert" AFTER INSERT ON "documents" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lexdesk_notify_change('app_id');--> statement-breakpoint
CREATE TRIGGER "documents_notify_update" AFTER UPDATE ON "documents" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lexdesk_notify_change('app_id');--> statement-breakpoint
CREATE TRIGGER "documents_notify_delete" AFTER DELETE ON "documents" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION lexdesk_notify_change('app_id');--> statement-breakpoint
CREATE TRIGGER "entities_notify_insert" AFTER INSERT ON "entities" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lexdesk_notify_change('app_id');--> statement-breakpoint
CREATE TRIGGER "entities_notify_update" AFTER UPDATE ON "entities" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lexdesk_notify_change('app_id');--> statement-breakpoint
CREATE TRIGGER "entities_notify_delete" AFTER DELETE ON "entities" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION lexdesk_notify_change('app_id');--> statement-breakpoint
CREATE TRIGGER "events_notify_insert" AFTER INSERT ON "events" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lexdesk_notify_change('app_id');--> statement-breakpoint
CREATE TRIGGER "events_notify_update" AFTER UPDATE ON "events" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lexdesk_notify_change('app_id');--> statement-breakpoint
CREATE TRIGGER "events_notify_delete" AFTER DELETE ON "events" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION lexdesk_notify_change('app_id');--> statement-breakpoint
CREATE TRIGGER "recordings_notify_insert" AFTER INSERT ON "recordings" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lexdesk_notify_change('app_id');--> statement-breakpoint
CREATE TRIGGER "recordings_notify_update" AFTER UPDATE ON "recordings" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lexdesk_notify_change('app_id');--> statement-breakpoint
CREATE TRIGGER "recordings_notify_delete" AFTER DELETE ON "recordings" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION lexdesk_notify_change('app_id');--> statement-breakpoint
CREATE TRIGGER "conversations_notify_insert" AFTER INSERT ON "conversations" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lexdesk_notify_change('app_id');--> statement-breakpoint
CREATE TRIGGER "conversations_notify_update" AFTER UPDATE ON "conversations" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lexdesk_notify_change('app_id');--> statement-breakpoint
CREATE TRIGGER "conversations_notify_delete" AFTER DELETE ON "conversations" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION lexdesk_notify_change('app_id');--> statement-breakpoint
CREATE TRIGGER "jobs_notify_insert" AFTER INSERT ON "jobs" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lexdesk_notify_change('');--> statement-breakpoint
CREATE TRIGGER "jobs_notify_update" AFTER UPDATE ON "jobs" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lexdesk_notify_change('');--> statement-breakpoint
CREATE TRIGGER "jobs_notify_delete" AFTER DELETE ON "jobs" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION lexdesk_notify_change('');--> statement-breakpoint
CREATE OR REPLACE FUNCTION lexdesk_notify_session_end() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('lexdesk_sessions', ended.id) FROM old_rows AS ended;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "session_notify_delete" AFTER DELETE ON "session" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION lexdesk_notify_session_end();
