-- Issue 23 (decision 0048), hand-written: carry this whole file over if the migration is renumbered.
-- 1. tenant_tokens is a tenant table: RLS like every other (the organisation read once per
--    statement, decision 0030). Tokens are minted and revoked (revoked_at set), never deleted by
--    a request; deleting the organisation or the token's app deletes them.
GRANT SELECT, INSERT, UPDATE ON tenant_tokens TO lexdesk_app;
--> statement-breakpoint
ALTER TABLE tenant_tokens ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE tenant_tokens FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON tenant_tokens
  USING (org_id = (SELECT NULLIF(current_setting('app.org_id', true), '')))
  WITH CHECK (org_id = (SELECT NULLIF(current_setting('app.org_id', true), '')));
--> statement-breakpoint
ALTER TABLE tenant_tokens ADD CONSTRAINT tenant_tokens_app_fk FOREIGN KEY (org_id, app_id)
  REFERENCES apps (org_id, id) ON DELETE CASCADE;
--> statement-breakpoint
-- 2. The app clause that decision 8 deferred until a principal could be app-scoped. A transaction
--    of an app-scoped principal (a tenant token or key minted for one app) switches to the role
--    lexdesk_app_scoped (a member of lexdesk_app: the same grants) and sets `app.app_id`; every
--    tenant table with an app_id column gets a RESTRICTIVE policy for that role only (ANDed with
--    tenant_isolation, which stays as it is), admitting only rows of that app, organisation-wide
--    rows (app_id NULL) included in neither reading nor writing. Whole-organisation transactions
--    (lexdesk_app) are not subject to it, so their plans and row estimates do not change. The
--    setting is read once per statement (decision 0030). The tables are found from the catalog,
--    so every such table existing now is covered; rls-coverage.test.ts checks later ones.
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'lexdesk_app_scoped') THEN
    CREATE ROLE lexdesk_app_scoped NOLOGIN NOSUPERUSER NOBYPASSRLS IN ROLE lexdesk_app;
  END IF;
END $$;
--> statement-breakpoint
DO $$ BEGIN
  EXECUTE format('GRANT lexdesk_app_scoped TO %I', current_user);
EXCEPTION WHEN others THEN NULL; -- already a member, or a superuser that needs no grant
END $$;
--> statement-breakpoint
DO $$
DECLARE
  t text;
BEGIN
  FOR t IN
    SELECT c.relname FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_attribute o ON o.attrelid = c.oid AND o.attname = 'org_id' AND NOT o.attisdropped
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'app_id' AND NOT a.attisdropped
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
  LOOP
    EXECUTE format(
      'CREATE POLICY app_isolation ON %I AS RESTRICTIVE TO lexdesk_app_scoped '
      'USING (app_id = (SELECT NULLIF(current_setting(''app.app_id'', true), '''')::uuid)) '
      'WITH CHECK (app_id = (SELECT NULLIF(current_setting(''app.app_id'', true), '''')::uuid))',
      t
    );
  END LOOP;
END
$$;
