-- Issue 24 (decision 0055), hand-written: carry this whole file over if the migration is renumbered.
-- storage_buckets and storage_objects are tenant tables: RLS like every other (the organisation
-- read once per statement, decision 0030). Buckets are created and deleted, never renamed;
-- objects are written, overwritten (a new file_key, size, type) and deleted.
GRANT SELECT, INSERT, DELETE ON storage_buckets TO lexdesk_app;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON storage_objects TO lexdesk_app;
--> statement-breakpoint
ALTER TABLE storage_buckets ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE storage_buckets FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON storage_buckets
  USING (org_id = (SELECT NULLIF(current_setting('app.org_id', true), '')))
  WITH CHECK (org_id = (SELECT NULLIF(current_setting('app.org_id', true), '')));
--> statement-breakpoint
ALTER TABLE storage_objects ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE storage_objects FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON storage_objects
  USING (org_id = (SELECT NULLIF(current_setting('app.org_id', true), '')))
  WITH CHECK (org_id = (SELECT NULLIF(current_setting('app.org_id', true), '')));
