-- A SECURITY DEFINER function runs as its owner; unless its search_path names pg_temp, PostgreSQL
-- searches the session's temporary schema first for the tables it names ("Writing SECURITY
-- DEFINER Functions Safely", PostgreSQL documentation). Every role may create temporary tables,
-- so a caller could create a temporary legal_holds, retention_policies or audit_logs and steer
-- what these functions read and delete. pg_temp last: the public tables always win.
-- publish_import belongs to lexdesk_import_publisher (0052): as there, the migrating role (which
-- need not be a superuser) is its member for this block only.
DO $$ BEGIN
  EXECUTE format('GRANT lexdesk_import_publisher TO %I', current_user);
  ALTER FUNCTION publish_import(text, text) SET search_path = pg_catalog, public, pg_temp;
  EXECUTE format('REVOKE lexdesk_import_publisher FROM %I', current_user);
END $$;--> statement-breakpoint
ALTER FUNCTION legal_hold_guard() SET search_path = pg_catalog, public, pg_temp;--> statement-breakpoint
ALTER FUNCTION purge_audit_entries(integer) SET search_path = pg_catalog, public, pg_temp;
