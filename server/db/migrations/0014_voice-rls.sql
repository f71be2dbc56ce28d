-- Voice (issue 7): recordings, their transcript segments and recording-consent acknowledgements
-- are tenant tables. Row-level security enabled and forced, one tenant_isolation policy each,
-- grants to the application role as listed in docs/authorization.md, and (decision 8) each row's
-- app, when it names one, is an app of its own organisation.
GRANT SELECT, INSERT, UPDATE, DELETE ON recordings TO lexdesk_app;
--> statement-breakpoint
GRANT SELECT, INSERT, DELETE ON recording_segments TO lexdesk_app;
--> statement-breakpoint
GRANT SELECT, INSERT ON voice_consents TO lexdesk_app;
--> statement-breakpoint
ALTER TABLE recordings ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE recordings FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE recording_segments ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE recording_segments FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE voice_consents ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE voice_consents FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON recordings TO lexdesk_app
  USING (org_id = NULLIF(current_setting('app.org_id', true), ''))
  WITH CHECK (org_id = NULLIF(current_setting('app.org_id', true), ''));
--> statement-breakpoint
CREATE POLICY tenant_isolation ON recording_segments TO lexdesk_app
  USING (org_id = NULLIF(current_setting('app.org_id', true), ''))
  WITH CHECK (org_id = NULLIF(current_setting('app.org_id', true), ''));
--> statement-breakpoint
CREATE POLICY tenant_isolation ON voice_consents TO lexdesk_app
  USING (org_id = NULLIF(current_setting('app.org_id', true), ''))
  WITH CHECK (org_id = NULLIF(current_setting('app.org_id', true), ''));
--> statement-breakpoint
ALTER TABLE recordings
  ADD CONSTRAINT recordings_app_fk FOREIGN KEY (org_id, app_id)
  REFERENCES apps (org_id, id) ON DELETE SET NULL (app_id);
--> statement-breakpoint
ALTER TABLE recording_segments
  ADD CONSTRAINT recording_segments_app_fk FOREIGN KEY (org_id, app_id)
  REFERENCES apps (org_id, id) ON DELETE SET NULL (app_id);
--> statement-breakpoint
ALTER TABLE voice_consents
  ADD CONSTRAINT voice_consents_app_fk FOREIGN KEY (org_id, app_id)
  REFERENCES apps (org_id, id) ON DELETE SET NULL (app_id);
