CREATE TABLE "playbook_checks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" text NOT NULL,
	"app_id" uuid,
	"document_id" uuid NOT NULL,
	"playbook_id" uuid NOT NULL,
	"playbook_version_id" uuid NOT NULL,
	"status" text DEFAULT 'done' NOT NULL,
	"results" jsonb,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "playbook_checks_status_check" CHECK (status IN ('done', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "playbook_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" text NOT NULL,
	"playbook_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"positions" jsonb NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"approved_by" text,
	"approved_at" timestamp with time zone,
	CONSTRAINT "playbook_versions_number_key" UNIQUE("playbook_id","number"),
	CONSTRAINT "playbook_versions_number_check" CHECK (number >= 1)
);
--> statement-breakpoint
CREATE TABLE "playbooks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"current_version" integer,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "playbooks_name_check" CHECK (char_length(name) BETWEEN 1 AND 200)
);
--> statement-breakpoint
ALTER TABLE "playbook_checks" ADD CONSTRAINT "playbook_checks_org_id_organization_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "playbook_checks" ADD CONSTRAINT "playbook_checks_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "playbook_checks" ADD CONSTRAINT "playbook_checks_playbook_id_playbooks_id_fk" FOREIGN KEY ("playbook_id") REFERENCES "public"."playbooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "playbook_checks" ADD CONSTRAINT "playbook_checks_playbook_version_id_playbook_versions_id_fk" FOREIGN KEY ("playbook_version_id") REFERENCES "public"."playbook_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "playbook_checks" ADD CONSTRAINT "playbook_checks_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "playbook_versions" ADD CONSTRAINT "playbook_versions_org_id_organization_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "playbook_versions" ADD CONSTRAINT "playbook_versions_playbook_id_playbooks_id_fk" FOREIGN KEY ("playbook_id") REFERENCES "public"."playbooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "playbook_versions" ADD CONSTRAINT "playbook_versions_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "playbook_versions" ADD CONSTRAINT "playbook_versions_approved_by_user_id_fk" FOREIGN KEY ("approved_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "playbooks" ADD CONSTRAINT "playbooks_org_id_organization_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "playbooks" ADD CONSTRAINT "playbooks_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "playbook_checks_playbook_created_idx" ON "playbook_checks" USING btree ("playbook_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "playbook_checks_document_idx" ON "playbook_checks" USING btree ("document_id");--> statement-breakpoint
CREATE INDEX "playbook_checks_version_idx" ON "playbook_checks" USING btree ("playbook_version_id");--> statement-breakpoint
CREATE INDEX "playbook_checks_app_idx" ON "playbook_checks" USING btree ("app_id");--> statement-breakpoint
CREATE INDEX "playbooks_org_created_idx" ON "playbooks" USING btree ("org_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
-- Issue 46 (decision 0153), hand-written below drizzle-kit's tables: carry it over if the
-- migration is renumbered. The three are tenant tables: RLS like every other (the organisation
-- read once per statement, decision 0030); playbook_checks, which has an app_id, also gets the
-- restrictive app clause of app-scoped principals (decision 0048), as comparisons have it.
-- Playbooks belong to the whole organisation (no app): an app-bound credential may read them and
-- check its app's documents, never write them (their routes say so). A check's app is its
-- document's own organisation's (composite key); deleting the app returns its checks to the
-- organisation (only app_id set to NULL).
ALTER TABLE playbook_checks ADD CONSTRAINT playbook_checks_app_fk FOREIGN KEY (org_id, app_id)
  REFERENCES apps (org_id, id) ON DELETE SET NULL (app_id);
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON playbooks TO lexdesk_app;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON playbook_versions TO lexdesk_app;
--> statement-breakpoint
GRANT SELECT, INSERT, DELETE ON playbook_checks TO lexdesk_app;
--> statement-breakpoint
DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['playbooks', 'playbook_versions', 'playbook_checks'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format(
      'CREATE POLICY tenant_isolation ON %I '
      'USING (org_id = (SELECT NULLIF(current_setting(''app.org_id'', true), ''''))) '
      'WITH CHECK (org_id = (SELECT NULLIF(current_setting(''app.org_id'', true), '''')))',
      t
    );
  END LOOP;
  FOREACH t IN ARRAY ARRAY['playbook_checks'] LOOP
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
-- An approved version is frozen: a check names the positions it was judged by, so they may never
-- change under it. A plain (invoker's) trigger: it reads only the row being updated.
CREATE FUNCTION playbook_version_frozen() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF OLD.approved_at IS NOT NULL THEN
    RAISE EXCEPTION 'playbook version % is approved and cannot change', OLD.id
      USING ERRCODE = 'check_violation', CONSTRAINT = 'playbook_versions_frozen';
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER playbook_versions_frozen BEFORE UPDATE ON playbook_versions
  FOR EACH ROW EXECUTE FUNCTION playbook_version_frozen();
