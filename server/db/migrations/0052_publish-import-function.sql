-- Hand-written (issue 27, decision 0080): publishing an import into an existing organisation
-- moves the staged rows from a hidden staging organisation into the target, a cross-tenant move
-- that row-level security forbids the application's roles. publish_import(staging, target) makes
-- exactly that move and nothing else, as SECURITY DEFINER owned by lexdesk_import_publisher: a
-- NOLOGIN role nobody can switch to (no member after this migration), whose policies below admit
-- every row of the tables it moves and counts, and which holds only what the move needs (SELECT
-- and UPDATE of org_id; the counters and roll-ups the triggers and the merge write). Not the
-- migrating role: it may own the tables without being a superuser, and FORCE ROW LEVEL SECURITY
-- then confines it like any tenant role (see 0008). Only lexdesk_worker (the job runner's role,
-- whose members are the application's login roles) may execute it.
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'lexdesk_import_publisher') THEN
    CREATE ROLE lexdesk_import_publisher NOLOGIN NOSUPERUSER NOBYPASSRLS NOINHERIT;
  END IF;
END $$;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO lexdesk_import_publisher;
--> statement-breakpoint
GRANT SELECT, UPDATE (org_id) ON apps, documents, analyses, doc_chunks, entities, conversations,
  messages, recordings, recording_segments, voice_consents, storage_buckets, storage_objects,
  events, audit_logs TO lexdesk_import_publisher;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE ON document_counts, entity_counts, activity_daily
  TO lexdesk_import_publisher;
--> statement-breakpoint
GRANT SELECT, INSERT ON activity_users, activity_org_users TO lexdesk_import_publisher;
--> statement-breakpoint
-- entity_imports: the entity counter trigger reads it (0027).
GRANT SELECT ON organization, member, entity_imports TO lexdesk_import_publisher;
--> statement-breakpoint
DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['apps', 'documents', 'analyses', 'doc_chunks', 'entities',
    'conversations', 'messages', 'recordings', 'recording_segments', 'voice_consents',
    'storage_buckets', 'storage_objects', 'events', 'audit_logs', 'document_counts',
    'entity_counts', 'entity_imports', 'activity_daily', 'activity_users', 'activity_org_users']
  LOOP
    EXECUTE format('CREATE POLICY import_publisher ON %I TO lexdesk_import_publisher '
      'USING (true) WITH CHECK (true)', t);
  END LOOP;
END $$;
--> statement-breakpoint
-- Refuses (42501) unless `staging_org` is what import-job.ts creates for an import into
-- `target_org`: its metadata marks an import job and names that target, and it has no member;
-- and `target_org` is another organisation with a member. So no call can move a firm's rows.
-- Returns the rows moved per table, as JSON; the caller compares them with what it staged.
CREATE FUNCTION publish_import(staging_org text, target_org text) RETURNS jsonb
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
      'storage_objects', 'events', 'audit_logs']) AS moved_tables(tbl);
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
REVOKE ALL ON FUNCTION publish_import(text, text) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION publish_import(text, text) TO lexdesk_worker;
--> statement-breakpoint
-- Ownership goes to lexdesk_import_publisher: ALTER OWNER needs the migrating role to be a
-- member of it, and it must be allowed to create in the schema: both only for this block.
DO $$ BEGIN
  EXECUTE format('GRANT lexdesk_import_publisher TO %I', current_user);
  GRANT CREATE ON SCHEMA public TO lexdesk_import_publisher;
  ALTER FUNCTION publish_import(text, text) OWNER TO lexdesk_import_publisher;
  REVOKE CREATE ON SCHEMA public FROM lexdesk_import_publisher;
  EXECUTE format('REVOKE lexdesk_import_publisher FROM %I', current_user);
END $$;
