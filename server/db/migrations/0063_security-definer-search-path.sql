-- A SECURITY DEFINER function runs as its owner; unless its search_path names pg_temp, PostgreSQL
-- searches the session's temporary schema first for the tables it names ("Writing SECURITY
-- DEFINER Functions Safely", PostgreSQL documentation). Every role may create temporary tables,
-- so a caller could create a temporary legal_holds, retention_policies or audit_logs and steer
-- what these functions read and delete. pg_temp last: the public tables always win.
ALTER FUNCTION publish_import(text, text) SET search_path = pg_catalog, public, pg_temp;--> statement-breakpoint
ALTER FUNCTION legal_hold_guard() SET search_path = pg_catalog, public, pg_temp;--> statement-breakpoint
ALTER FUNCTION purge_audit_entries(integer) SET search_path = pg_catalog, public, pg_temp;
