-- Jobs are a tenant table: the application role sees and writes only its organisation's jobs.
-- lexdesk_worker: the role of the job runner (server/jobs), which claims, heartbeats and finishes
-- jobs across organisations; only server code that explicitly switches to it can do so, and it
-- can read and update jobs only (no insert, no delete, no other table).
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'lexdesk_worker') THEN
    CREATE ROLE lexdesk_worker NOLOGIN NOSUPERUSER NOBYPASSRLS;
  END IF;
END $$;
--> statement-breakpoint
DO $$ BEGIN
  EXECUTE format('GRANT lexdesk_worker TO %I', current_user);
EXCEPTION WHEN others THEN NULL; -- already a member, or a superuser that needs no grant
END $$;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO lexdesk_worker;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE ON jobs TO lexdesk_app;
--> statement-breakpoint
GRANT SELECT, UPDATE ON jobs TO lexdesk_worker;
--> statement-breakpoint
ALTER TABLE jobs ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE jobs FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON jobs TO lexdesk_app
  USING (org_id = NULLIF(current_setting('app.org_id', true), ''))
  WITH CHECK (org_id = NULLIF(current_setting('app.org_id', true), ''));
--> statement-breakpoint
CREATE POLICY job_runner ON jobs TO lexdesk_worker USING (true) WITH CHECK (true);
