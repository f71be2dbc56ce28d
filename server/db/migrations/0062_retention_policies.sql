CREATE TABLE "retention_deletions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" text NOT NULL,
	"app_id" uuid,
	"policy_id" uuid NOT NULL,
	"policy_keep_days" integer NOT NULL,
	"job_id" uuid,
	"kind" text NOT NULL,
	"target_id" text,
	"title" text,
	"item_count" integer DEFAULT 1 NOT NULL,
	"last_changed_at" timestamp with time zone,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "retention_deletions_kind_check" CHECK (kind IN ('documents', 'recordings', 'conversations', 'storage_objects', 'audit_entries')),
	CONSTRAINT "retention_deletions_count_check" CHECK (item_count >= 1)
);
--> statement-breakpoint
CREATE TABLE "retention_policies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" text NOT NULL,
	"app_id" uuid,
	"kind" text NOT NULL,
	"keep_days" integer,
	"set_by" text,
	"set_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "retention_policies_scope_key" UNIQUE NULLS NOT DISTINCT("org_id","app_id","kind"),
	CONSTRAINT "retention_policies_kind_check" CHECK (kind IN ('documents', 'recordings', 'conversations', 'storage_objects', 'audit_entries')),
	CONSTRAINT "retention_policies_keep_days_check" CHECK (keep_days IS NULL OR keep_days BETWEEN 1 AND 36500),
	CONSTRAINT "retention_policies_app_kind_check" CHECK (app_id IS NULL OR kind IN ('documents', 'recordings', 'conversations'))
);
--> statement-breakpoint
ALTER TABLE "retention_deletions" ADD CONSTRAINT "retention_deletions_org_id_organization_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "retention_policies" ADD CONSTRAINT "retention_policies_org_id_organization_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "retention_policies" ADD CONSTRAINT "retention_policies_set_by_user_id_fk" FOREIGN KEY ("set_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "retention_policies" ADD CONSTRAINT "retention_policies_app_fk" FOREIGN KEY ("org_id","app_id") REFERENCES "public"."apps"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "retention_deletions_org_deleted_idx" ON "retention_deletions" USING btree ("org_id","deleted_at","id");--> statement-breakpoint
-- Issue 45 (decision 0148), hand-written below drizzle-kit's tables: carry it over if the
-- migration is renumbered. Both tables are tenant tables: RLS like every other (the organisation
-- read once per statement, decision 0030) and, as each has an app_id, the restrictive app clause
-- of app-scoped principals (decision 0048; their routes refuse app-bound credentials anyway).
-- Policies are set, changed and cleared; report rows are written once and go only with their
-- organisation.
GRANT SELECT, INSERT, UPDATE, DELETE ON retention_policies TO lexdesk_app;
--> statement-breakpoint
GRANT SELECT, INSERT ON retention_deletions TO lexdesk_app;
--> statement-breakpoint
-- Conversations were kept for good (decision 0018: no request deletes one); the firm's own
-- "conversations" policy now may, through the retention job alone (its messages go by cascade).
GRANT DELETE ON conversations TO lexdesk_app;
--> statement-breakpoint
DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['retention_policies', 'retention_deletions'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format(
      'CREATE POLICY tenant_isolation ON %I '
      'USING (org_id = (SELECT NULLIF(current_setting(''app.org_id'', true), ''''))) '
      'WITH CHECK (org_id = (SELECT NULLIF(current_setting(''app.org_id'', true), '''')))',
      t
    );
    EXECUTE format(
      'CREATE POLICY app_isolation ON %I AS RESTRICTIVE TO lexdesk_app_scoped '
      'USING (app_id = (SELECT NULLIF(current_setting(''app.app_id'', true), '''')::uuid)) '
      'WITH CHECK (app_id = (SELECT NULLIF(current_setting(''app.app_id'', true), '''')::uuid))',
      t
    );
  END LOOP;
END
$$;
--> statement-breakpoint
-- The one sanctioned way audit entries are deleted (decision 0148): the audit log stays
-- append-only for the application role (migration 0002 revoked its UPDATE and DELETE), and this
-- function, run as its owner, deletes at most `batch` (1–1,000) of the oldest entries of the
-- caller's organisation (app.org_id; never an app-bound caller) that are older than that
-- organisation's own "audit entries" policy says, read here from retention_policies, never
-- from the caller: no argument can widen what it deletes. While any legal hold stands in the
-- organisation it deletes nothing (a hold keeps the record of what happened to held data).
-- Returns how many entries it deleted.
CREATE FUNCTION purge_audit_entries(batch integer) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
  org text := NULLIF(current_setting('app.org_id', true), '');
  keep_for integer;
  deleted integer;
BEGIN
  IF org IS NULL OR NULLIF(current_setting('app.app_id', true), '') IS NOT NULL THEN
    RAISE EXCEPTION 'purge_audit_entries: only an organisation''s own transaction may call it';
  END IF;
  SELECT p.keep_days INTO keep_for FROM retention_policies p
  WHERE p.org_id = org AND p.app_id IS NULL AND p.kind = 'audit_entries';
  IF keep_for IS NULL THEN
    RETURN 0;
  END IF;
  IF EXISTS (SELECT FROM legal_holds h WHERE h.org_id = org AND h.released_at IS NULL) THEN
    RETURN 0;
  END IF;
  DELETE FROM audit_logs a WHERE a.id IN (
    SELECT o.id FROM audit_logs o
    WHERE o.org_id = org AND o.created_at < now() - make_interval(days => keep_for)
    ORDER BY o.created_at, o.id
    LIMIT least(greatest(batch, 1), 1000));
  GET DIAGNOSTICS deleted = ROW_COUNT;
  RETURN deleted;
END
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION purge_audit_entries(integer) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION purge_audit_entries(integer) TO lexdesk_app;
