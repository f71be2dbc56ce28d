-- Issue 30 (decision 0060), hand-written: carry this whole file over if the migration is renumbered.
-- activity_daily, activity_users and activity_org_users are the daily rollups the dashboard and analytics read
-- (a few rows per day, never a scan of the event log or the jobs per page view). Both are tenant
-- tables: RLS like every other (the organisation read once per statement, decision 0030), and the
-- app clause of decision 0048 for app-scoped principals. They are written only by the triggers
-- below, in the same transaction as the write they count, so a rolled-back action counts nothing.
--
-- 1. What exists already: every event (no actor was recorded before this migration, so no active
--    users) and every foreground job that succeeded and whose record is still kept. FORCE would
--    hide the rows from a migrating role that owns the tables without being a superuser, so it is
--    lifted for the backfill only (as in 0021).
ALTER TABLE events NO FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE jobs NO FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
INSERT INTO activity_daily (org_id, app_id, day, metric, count)
SELECT org_id, app_id, (created_at AT TIME ZONE 'UTC')::date, kind, count(*)
FROM events GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
INSERT INTO activity_daily (org_id, app_id, day, metric, count, total_ms)
SELECT org_id, NULL, (finished_at AT TIME ZONE 'UTC')::date, 'job:' || kind, count(*),
       sum(round(extract(epoch FROM finished_at - started_at) * 1000))::bigint
FROM jobs
WHERE status = 'succeeded' AND NOT background AND started_at IS NOT NULL
  AND finished_at IS NOT NULL
GROUP BY 1, 3, 4;
--> statement-breakpoint
ALTER TABLE events FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE jobs FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
-- 2. Row-level security and grants. The job runner's role finishes jobs, so its trigger writes
--    the job rollups as lexdesk_worker, across organisations like its policy on jobs (decision 10).
GRANT SELECT, INSERT, UPDATE ON activity_daily TO lexdesk_app;
--> statement-breakpoint
GRANT SELECT, INSERT ON activity_users TO lexdesk_app;
--> statement-breakpoint
GRANT SELECT, INSERT ON activity_org_users TO lexdesk_app;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE ON activity_daily TO lexdesk_worker;
--> statement-breakpoint
ALTER TABLE activity_daily ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE activity_daily FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON activity_daily TO lexdesk_app
  USING (org_id = (SELECT NULLIF(current_setting('app.org_id', true), '')))
  WITH CHECK (org_id = (SELECT NULLIF(current_setting('app.org_id', true), '')));
--> statement-breakpoint
CREATE POLICY job_runner ON activity_daily TO lexdesk_worker USING (true) WITH CHECK (true);
--> statement-breakpoint
CREATE POLICY app_isolation ON activity_daily AS RESTRICTIVE TO lexdesk_app_scoped
  USING (app_id = (SELECT NULLIF(current_setting('app.app_id', true), '')::uuid))
  WITH CHECK (app_id = (SELECT NULLIF(current_setting('app.app_id', true), '')::uuid));
--> statement-breakpoint
ALTER TABLE activity_users ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE activity_users FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON activity_users
  USING (org_id = (SELECT NULLIF(current_setting('app.org_id', true), '')))
  WITH CHECK (org_id = (SELECT NULLIF(current_setting('app.org_id', true), '')));
--> statement-breakpoint
CREATE POLICY app_isolation ON activity_users AS RESTRICTIVE TO lexdesk_app_scoped
  USING (app_id = (SELECT NULLIF(current_setting('app.app_id', true), '')::uuid))
  WITH CHECK (app_id = (SELECT NULLIF(current_setting('app.app_id', true), '')::uuid));
--> statement-breakpoint
ALTER TABLE activity_org_users ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE activity_org_users FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON activity_org_users
  USING (org_id = (SELECT NULLIF(current_setting('app.org_id', true), '')))
  WITH CHECK (org_id = (SELECT NULLIF(current_setting('app.org_id', true), '')));
--> statement-breakpoint
-- 3. The event trigger: once per statement, the inserted events grouped by (org, app, day, kind),
--    groups in key order so concurrent statements lock rollup rows in one order (as 0021).
CREATE FUNCTION events_rollup() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO activity_daily AS a (org_id, app_id, day, metric, count)
  SELECT org_id, app_id, (created_at AT TIME ZONE 'UTC')::date AS day, kind, count(*)
  FROM new_rows GROUP BY 1, 2, 3, 4 ORDER BY 1, 3, 4, 2
  ON CONFLICT (org_id, metric, day, app_id) DO UPDATE SET count = a.count + excluded.count;
  INSERT INTO activity_users (org_id, app_id, day, user_id)
  SELECT DISTINCT org_id, app_id, (created_at AT TIME ZONE 'UTC')::date, actor_id
  FROM new_rows WHERE actor_id IS NOT NULL ORDER BY 1, 3, 2, 4
  ON CONFLICT DO NOTHING;
  INSERT INTO activity_org_users (org_id, day, user_id)
  SELECT DISTINCT org_id, (created_at AT TIME ZONE 'UTC')::date, actor_id
  FROM new_rows WHERE actor_id IS NOT NULL ORDER BY 1, 2, 3
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER events_rollup_insert AFTER INSERT ON events
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION events_rollup();
--> statement-breakpoint
-- 4. The job trigger: a foreground job (one a person waits on, decision 0028) that has just
--    succeeded adds its run, started_at to finished_at, to its organisation's day. Jobs belong
--    to no app, so their rollups are organisation-wide.
CREATE FUNCTION jobs_rollup() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO activity_daily AS a (org_id, app_id, day, metric, count, total_ms)
  VALUES (NEW.org_id, NULL, (NEW.finished_at AT TIME ZONE 'UTC')::date, 'job:' || NEW.kind, 1,
          round(extract(epoch FROM NEW.finished_at - NEW.started_at) * 1000)::bigint)
  ON CONFLICT (org_id, metric, day, app_id) DO UPDATE
    SET count = a.count + 1, total_ms = a.total_ms + excluded.total_ms;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER jobs_rollup_succeeded AFTER UPDATE OF status ON jobs
  FOR EACH ROW
  WHEN (NEW.status = 'succeeded' AND OLD.status IS DISTINCT FROM 'succeeded'
        AND NOT NEW.background AND NEW.started_at IS NOT NULL AND NEW.finished_at IS NOT NULL)
  EXECUTE FUNCTION jobs_rollup();
