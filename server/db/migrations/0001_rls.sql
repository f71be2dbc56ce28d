-- Row-level security for tenant tables (ARCHITECTURE.md "Tenancy"). drizzle-kit does not emit
-- FORCE ROW LEVEL SECURITY or roles, hence this custom migration.
-- lexdesk_app: the non-superuser role every tenant transaction switches to (SET LOCAL ROLE).
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'lexdesk_app') THEN
    CREATE ROLE lexdesk_app NOLOGIN NOSUPERUSER NOBYPASSRLS;
  END IF;
END $$;
--> statement-breakpoint
DO $$ BEGIN
  EXECUTE format('GRANT lexdesk_app TO %I', current_user);
EXCEPTION WHEN others THEN NULL; -- already a member, or a superuser that needs no grant
END $$;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO lexdesk_app;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON apps, documents, analyses, audit_logs TO lexdesk_app;
--> statement-breakpoint
ALTER TABLE apps ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE apps FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE documents ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE documents FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE analyses ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE analyses FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE audit_logs ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE audit_logs FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
-- current_setting(..., true) is NULL before first use and '' afterwards: both mean "no tenant",
-- and NULL never equals org_id, so such a session sees and writes nothing.
CREATE POLICY tenant_isolation ON apps
  USING (org_id = NULLIF(current_setting('app.org_id', true), ''))
  WITH CHECK (org_id = NULLIF(current_setting('app.org_id', true), ''));
--> statement-breakpoint
CREATE POLICY tenant_isolation ON documents
  USING (org_id = NULLIF(current_setting('app.org_id', true), ''))
  WITH CHECK (org_id = NULLIF(current_setting('app.org_id', true), ''));
--> statement-breakpoint
CREATE POLICY tenant_isolation ON analyses
  USING (org_id = NULLIF(current_setting('app.org_id', true), ''))
  WITH CHECK (org_id = NULLIF(current_setting('app.org_id', true), ''));
--> statement-breakpoint
CREATE POLICY tenant_isolation ON audit_logs
  USING (org_id = NULLIF(current_setting('app.org_id', true), ''))
  WITH CHECK (org_id = NULLIF(current_setting('app.org_id', true), ''));
