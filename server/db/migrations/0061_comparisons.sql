CREATE TABLE "comparisons" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" text NOT NULL,
	"app_id" uuid,
	"base_document_id" uuid NOT NULL,
	"revised_document_id" uuid NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"result" jsonb,
	"error" text,
	"substantive_changes" integer,
	"format_changes" integer,
	"moves" integer,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "comparisons_state_check" CHECK (state IN ('queued', 'running', 'done', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "comparisons" ADD CONSTRAINT "comparisons_org_id_organization_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comparisons" ADD CONSTRAINT "comparisons_base_document_id_documents_id_fk" FOREIGN KEY ("base_document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comparisons" ADD CONSTRAINT "comparisons_revised_document_id_documents_id_fk" FOREIGN KEY ("revised_document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comparisons" ADD CONSTRAINT "comparisons_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "comparisons_org_created_idx" ON "comparisons" USING btree ("org_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "comparisons_app_idx" ON "comparisons" USING btree ("app_id");--> statement-breakpoint
CREATE INDEX "comparisons_base_document_idx" ON "comparisons" USING btree ("base_document_id");--> statement-breakpoint
CREATE INDEX "comparisons_revised_document_idx" ON "comparisons" USING btree ("revised_document_id");--> statement-breakpoint
-- Issue 46 (decision 0149), hand-written below drizzle-kit's table: carry it over if the
-- migration is renumbered. comparisons is a tenant table: RLS like every other (the organisation
-- read once per statement, decision 0030) and the restrictive app clause of app-scoped
-- principals (decision 0048), as documents have it. A comparison's app is its own
-- organisation's (composite key); deleting the app returns its comparisons to the organisation,
-- as it does its documents (only app_id set to NULL). Comparisons are created, written by their
-- job and deleted; deleting either document deletes them (the foreign keys' cascades, which RLS
-- and grants do not stop; no legal-hold trigger here: a comparison is derived data, its
-- documents keep their own holds, decision 0147).
ALTER TABLE comparisons ADD CONSTRAINT comparisons_app_fk FOREIGN KEY (org_id, app_id)
  REFERENCES apps (org_id, id) ON DELETE SET NULL (app_id);
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON comparisons TO lexdesk_app;
--> statement-breakpoint
ALTER TABLE comparisons ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE comparisons FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON comparisons
  USING (org_id = (SELECT NULLIF(current_setting('app.org_id', true), '')))
  WITH CHECK (org_id = (SELECT NULLIF(current_setting('app.org_id', true), '')));
--> statement-breakpoint
CREATE POLICY app_isolation ON comparisons AS RESTRICTIVE TO lexdesk_app_scoped
  USING (app_id = (SELECT NULLIF(current_setting('app.app_id', true), '')::uuid))
  WITH CHECK (app_id = (SELECT NULLIF(current_setting('app.app_id', true), '')::uuid));
