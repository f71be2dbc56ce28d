CREATE INDEX "review_rows_document_idx" ON "review_rows" USING btree ("document_id");--> statement-breakpoint
CREATE INDEX "reviews_app_idx" ON "reviews" USING btree ("app_id");--> statement-breakpoint
-- Issue 44 (decision 0143), hand-written below drizzle-kit's indexes: carry it over if the
-- migration is renumbered. Reviews travel in organisation archives, so an import into an existing
-- organisation moves them too: publish_import (0052) gains the four review tables, and its owner
-- lexdesk_import_publisher what the move needs of them (SELECT and UPDATE of org_id, a policy
-- admitting every row), as for the tables of 0052. Otherwise the function is 0052's.
GRANT SELECT, UPDATE (org_id) ON reviews, review_columns, review_rows, review_cells
  TO lexdesk_import_publisher;
--> statement-breakpoint
DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['reviews', 'review_columns', 'review_rows', 'review_cells'] LOOP
    EXECUTE format('CREATE POLICY import_publisher ON %I TO lexdesk_import_publisher '
      'USING (true) WITH CHECK (true)', t);
  END LOOP;
END $$;
--> statement-breakpoint
-- Replacing the function needs its owner's rights: the migrating role holds them only for this.
DO $$ BEGIN
  EXECUTE format('GRANT lexdesk_import_publisher TO %I', current_user);
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION publish_import(staging_org text, target_org text) RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
  raw text;
  mark jsonb;
  moved jsonb;
  ctes text;
  counts text;
BEGIN
  SELECT metadata INTO raw FROM organization WHERE id = staging_org;
  BEGIN
    mark := raw::jsonb;
  EXCEPTION WHEN others THEN
    mark := NULL;
  END;
  IF staging_org IS NULL OR target_org IS NULL OR staging_org = target_org
     OR jsonb_typeof(mark) IS DISTINCT FROM 'object'
     OR mark ->> 'importJobId' IS NULL
     OR mark ->> 'intoOrgId' IS DISTINCT FROM target_org
     OR EXISTS (SELECT FROM member WHERE organization_id = staging_org)
     OR NOT EXISTS (SELECT FROM member WHERE organization_id = target_org) THEN
    RAISE EXCEPTION 'publish_import: % is not the staging organisation of an import into %',
      staging_org, target_org USING ERRCODE = 'insufficient_privilege';
  END IF;
  -- One statement: the composite keys (org_id, app_id) and (org_id, bucket_id) are checked
  -- once every row has moved (decision 0071).
  SELECT string_agg(format('m_%1$s AS (UPDATE %1$I SET org_id = $2 WHERE org_id = $1 RETURNING 1)',
                           tbl), ', '),
         string_agg(format('%1$L, (SELECT count(*) FROM m_%1$s)', tbl), ', ')
    INTO ctes, counts
    FROM unnest(ARRAY['apps', 'documents', 'analyses', 'doc_chunks', 'entities', 'conversations',
      'messages', 'recordings', 'recording_segments', 'voice_consents', 'storage_buckets',
      'storage_objects', 'reviews', 'review_columns', 'review_rows', 'review_cells', 'events',
      'audit_logs']) AS moved_tables(tbl);
  EXECUTE format('WITH %s SELECT jsonb_build_object(%s)', ctes, counts)
    INTO moved USING staging_org, target_org;
  -- The staging roll-ups (written by the events' insert trigger) are added to the target's;
  -- the staging organisation's own go with it (ON DELETE CASCADE).
  INSERT INTO activity_daily AS a (org_id, app_id, day, metric, count, total_ms)
  SELECT target_org, d.app_id, d.day, d.metric, d.count, d.total_ms FROM activity_daily d
  WHERE d.org_id = staging_org
  ON CONFLICT (org_id, metric, day, app_id)
  DO UPDATE SET count = a.count + excluded.count, total_ms = a.total_ms + excluded.total_ms;
  INSERT INTO activity_users (org_id, app_id, day, user_id)
  SELECT target_org, u.app_id, u.day, u.user_id FROM activity_users u
  WHERE u.org_id = staging_org ON CONFLICT DO NOTHING;
  INSERT INTO activity_org_users (org_id, day, user_id)
  SELECT target_org, u.day, u.user_id FROM activity_org_users u
  WHERE u.org_id = staging_org ON CONFLICT DO NOTHING;
  RETURN moved;
END
$$;
--> statement-breakpoint
DO $$ BEGIN
  EXECUTE format('REVOKE lexdesk_import_publisher FROM %I', current_user);
END $$;
