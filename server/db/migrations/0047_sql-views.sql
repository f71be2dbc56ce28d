-- Issue 30 (decision 0061), hand-written: carry this whole file over if the migration is renumbered.
-- 1. sql_queries (the SQL runner's history) is a tenant table: RLS like every other (the
--    organisation read once per statement, decision 0030). Rows are recorded and pruned to the
--    last 20 per actor, never edited.
GRANT SELECT, INSERT, DELETE ON sql_queries TO lexdesk_app;
--> statement-breakpoint
ALTER TABLE sql_queries ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE sql_queries FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON sql_queries
  USING (org_id = (SELECT NULLIF(current_setting('app.org_id', true), '')))
  WITH CHECK (org_id = (SELECT NULLIF(current_setting('app.org_id', true), '')));
--> statement-breakpoint
-- 2. The role the runner's statements run as: no login, no superuser, no RLS bypass, no role of
--    its own to inherit from (so nothing it could SET ROLE to is granted through it). It reads
--    only the sql_* views below and, through them (security_invoker), only the columns they show
--    of the tenant tables, whose tenant_isolation policies (for every role) confine it to
--    `app.org_id`. Nothing on the auth tables, the history, api_keys or tenant_tokens.
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'lexdesk_sql') THEN
    CREATE ROLE lexdesk_sql NOLOGIN NOSUPERUSER NOBYPASSRLS NOINHERIT NOCREATEROLE NOCREATEDB;
  END IF;
END $$;
--> statement-breakpoint
DO $$ BEGIN
  EXECUTE format('GRANT lexdesk_sql TO %I', current_user);
EXCEPTION WHEN others THEN NULL; -- already a member, or a superuser that needs no grant
END $$;
--> statement-breakpoint
-- 3. The views the runner may read (server/features/sql/sql-views.ts lists the same names; its
--    test checks the two agree). security_invoker: the caller's (lexdesk_sql's) privileges and
--    the tables' RLS apply, not the view owner's. Each table grants lexdesk_sql only the columns
--    its view shows plus org_id (read by its policy).
CREATE VIEW sql_apps WITH (security_invoker = true) AS
  SELECT id, slug, created_at FROM apps;
--> statement-breakpoint
GRANT SELECT (org_id, id, slug, created_at) ON apps TO lexdesk_sql;
--> statement-breakpoint
CREATE VIEW sql_documents WITH (security_invoker = true) AS
  SELECT id, app_id, title, preview, document_type, text_status, file_name, mime_type, size_bytes,
         created_by, created_at
  FROM documents;
--> statement-breakpoint
GRANT SELECT (org_id, id, app_id, title, preview, document_type, text_status, file_name, mime_type,
              size_bytes, created_by, created_at) ON documents TO lexdesk_sql;
--> statement-breakpoint
CREATE VIEW sql_analyses WITH (security_invoker = true) AS
  SELECT id, document_id, kind, engine, model, result, created_by, created_at FROM analyses;
--> statement-breakpoint
GRANT SELECT (org_id, id, document_id, kind, engine, model, result, created_by, created_at)
  ON analyses TO lexdesk_sql;
--> statement-breakpoint
-- Entities still being staged by an import are out of sight, as everywhere (decision 0035).
CREATE VIEW sql_entities WITH (security_invoker = true) AS
  SELECT e.id, e.app_id, e.type, e.name, e.data, e.created_at FROM entities e
  WHERE e.import_job_id IS NULL
     OR NOT EXISTS (SELECT FROM entity_imports i WHERE i.job_id = e.import_job_id);
--> statement-breakpoint
GRANT SELECT (org_id, id, app_id, type, name, data, created_at, import_job_id)
  ON entities TO lexdesk_sql;
--> statement-breakpoint
GRANT SELECT (org_id, job_id) ON entity_imports TO lexdesk_sql;
--> statement-breakpoint
CREATE VIEW sql_events WITH (security_invoker = true) AS
  SELECT id, app_id, kind, meta, created_at FROM events;
--> statement-breakpoint
GRANT SELECT (org_id, id, app_id, kind, meta, created_at) ON events TO lexdesk_sql;
--> statement-breakpoint
CREATE VIEW sql_recordings WITH (security_invoker = true) AS
  SELECT id, app_id, title, mime_type, size_bytes, duration_sec, status, document_id, engine,
         model, created_by, created_at
  FROM recordings;
--> statement-breakpoint
GRANT SELECT (org_id, id, app_id, title, mime_type, size_bytes, duration_sec, status, document_id,
              engine, model, created_by, created_at) ON recordings TO lexdesk_sql;
--> statement-breakpoint
CREATE VIEW sql_jobs WITH (security_invoker = true) AS
  SELECT id, kind, status, progress, attempts, error, error_code, subject_id, background,
         created_by, created_at, started_at, finished_at
  FROM jobs;
--> statement-breakpoint
GRANT SELECT (org_id, id, kind, status, progress, attempts, error, error_code, subject_id,
              background, created_by, created_at, started_at, finished_at) ON jobs TO lexdesk_sql;
--> statement-breakpoint
CREATE VIEW sql_audit_logs WITH (security_invoker = true) AS
  SELECT id, actor_type, actor_id, credential_id, action, target_type, target_id, meta, created_at
  FROM audit_logs;
--> statement-breakpoint
GRANT SELECT (org_id, id, actor_type, actor_id, credential_id, action, target_type, target_id,
              meta, created_at) ON audit_logs TO lexdesk_sql;
--> statement-breakpoint
CREATE VIEW sql_conversations WITH (security_invoker = true) AS
  SELECT id, app_id, started_at, created_by FROM conversations;
--> statement-breakpoint
GRANT SELECT (org_id, id, app_id, started_at, created_by) ON conversations TO lexdesk_sql;
--> statement-breakpoint
CREATE VIEW sql_storage_objects WITH (security_invoker = true) AS
  SELECT o.id, b.name AS bucket, o.name, o.size_bytes, o.content_type, o.created_by, o.updated_at
  FROM storage_objects o JOIN storage_buckets b ON b.id = o.bucket_id;
--> statement-breakpoint
GRANT SELECT (org_id, id, bucket_id, name, size_bytes, content_type, created_by, updated_at)
  ON storage_objects TO lexdesk_sql;
--> statement-breakpoint
GRANT SELECT (org_id, id, name) ON storage_buckets TO lexdesk_sql;
--> statement-breakpoint
GRANT SELECT ON sql_apps, sql_documents, sql_analyses, sql_entities, sql_events, sql_recordings,
  sql_jobs, sql_audit_logs, sql_conversations, sql_storage_objects TO lexdesk_sql;
