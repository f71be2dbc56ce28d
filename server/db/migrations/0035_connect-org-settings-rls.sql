-- Hand-written (issue 23, decision 0049): org_settings is a tenant table, RLS like every other
-- (the organisation read once per statement, decision 0030). An owner's request makes the row the
-- first time a setting changes and updates it after; no request deletes it (it goes with its
-- organisation).
GRANT SELECT, INSERT, UPDATE ON org_settings TO lexdesk_app;
--> statement-breakpoint
ALTER TABLE org_settings ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE org_settings FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON org_settings
  USING (org_id = (SELECT NULLIF(current_setting('app.org_id', true), '')))
  WITH CHECK (org_id = (SELECT NULLIF(current_setting('app.org_id', true), '')));
