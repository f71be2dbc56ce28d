-- Issue 9: entities and events are tenant tables. Row-level security enabled and forced with the
-- usual tenant_isolation policy; grants to the application role (events are append-only for it);
-- and, as for documents (decision 8), a composite reference so a row can only name an app of its
-- own organisation, returning to organisation-wide when the app is deleted.
GRANT SELECT, INSERT, UPDATE, DELETE ON entities TO lexdesk_app;
--> statement-breakpoint
GRANT SELECT, INSERT ON events TO lexdesk_app;
--> statement-breakpoint
ALTER TABLE entities ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE entities FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE events ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE events FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON entities
  USING (org_id = NULLIF(current_setting('app.org_id', true), ''))
  WITH CHECK (org_id = NULLIF(current_setting('app.org_id', true), ''));
--> statement-breakpoint
CREATE POLICY tenant_isolation ON events
  USING (org_id = NULLIF(current_setting('app.org_id', true), ''))
  WITH CHECK (org_id = NULLIF(current_setting('app.org_id', true), ''));
--> statement-breakpoint
ALTER TABLE entities
  ADD CONSTRAINT entities_app_fk FOREIGN KEY (org_id, app_id)
  REFERENCES apps (org_id, id) ON DELETE SET NULL (app_id);
--> statement-breakpoint
ALTER TABLE events
  ADD CONSTRAINT events_app_fk FOREIGN KEY (org_id, app_id)
  REFERENCES apps (org_id, id) ON DELETE SET NULL (app_id);
