CREATE TABLE "review_cells" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" text NOT NULL,
	"app_id" uuid,
	"review_id" uuid NOT NULL,
	"row_id" uuid NOT NULL,
	"column_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"row_position" integer NOT NULL,
	"column_position" integer NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"answer" jsonb,
	"citations" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"override" jsonb,
	"verified" boolean DEFAULT false NOT NULL,
	"verified_by" text,
	"verified_at" timestamp with time zone,
	"answered_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "review_cells_state_check" CHECK (state IN ('pending', 'running', 'answered', 'not_found', 'failed', 'unverified'))
);
--> statement-breakpoint
CREATE TABLE "review_columns" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" text NOT NULL,
	"app_id" uuid,
	"review_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"label" text NOT NULL,
	"preset_key" text,
	"question" text,
	"answer_type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "review_columns_answer_type_check" CHECK (answer_type IN ('yes_no', 'date', 'duration', 'money', 'party', 'text', 'list')),
	CONSTRAINT "review_columns_source_check" CHECK ((preset_key IS NULL) <> (question IS NULL))
);
--> statement-breakpoint
CREATE TABLE "review_rows" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" text NOT NULL,
	"app_id" uuid,
	"review_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reviews" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" text NOT NULL,
	"app_id" uuid,
	"name" text NOT NULL,
	"row_source" text NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reviews_row_source_check" CHECK (row_source IN ('selection', 'app'))
);
--> statement-breakpoint
ALTER TABLE "review_cells" ADD CONSTRAINT "review_cells_org_id_organization_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_cells" ADD CONSTRAINT "review_cells_review_id_reviews_id_fk" FOREIGN KEY ("review_id") REFERENCES "public"."reviews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_cells" ADD CONSTRAINT "review_cells_row_id_review_rows_id_fk" FOREIGN KEY ("row_id") REFERENCES "public"."review_rows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_cells" ADD CONSTRAINT "review_cells_column_id_review_columns_id_fk" FOREIGN KEY ("column_id") REFERENCES "public"."review_columns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_cells" ADD CONSTRAINT "review_cells_verified_by_user_id_fk" FOREIGN KEY ("verified_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_columns" ADD CONSTRAINT "review_columns_org_id_organization_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_columns" ADD CONSTRAINT "review_columns_review_id_reviews_id_fk" FOREIGN KEY ("review_id") REFERENCES "public"."reviews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_rows" ADD CONSTRAINT "review_rows_org_id_organization_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_rows" ADD CONSTRAINT "review_rows_review_id_reviews_id_fk" FOREIGN KEY ("review_id") REFERENCES "public"."reviews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_rows" ADD CONSTRAINT "review_rows_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_org_id_organization_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "review_cells_row_column_idx" ON "review_cells" USING btree ("row_id","column_id");--> statement-breakpoint
CREATE INDEX "review_cells_review_order_idx" ON "review_cells" USING btree ("review_id","row_position","column_position");--> statement-breakpoint
CREATE INDEX "review_cells_review_state_idx" ON "review_cells" USING btree ("review_id","state","row_position");--> statement-breakpoint
CREATE INDEX "review_cells_column_idx" ON "review_cells" USING btree ("column_id");--> statement-breakpoint
CREATE UNIQUE INDEX "review_columns_review_position_idx" ON "review_columns" USING btree ("review_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "review_rows_review_document_idx" ON "review_rows" USING btree ("review_id","document_id");--> statement-breakpoint
CREATE INDEX "review_rows_review_position_idx" ON "review_rows" USING btree ("review_id","position");--> statement-breakpoint
CREATE INDEX "reviews_org_created_idx" ON "reviews" USING btree ("org_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
-- Issue 44 (decision 0137), hand-written below drizzle-kit's tables: carry it over if the
-- migration is renumbered. The four review tables are tenant tables: RLS like every other (the
-- organisation read once per statement, decision 0030), and, as each has an app_id, the
-- restrictive app clause of app-scoped principals (decision 0048). A review's app is its own
-- organisation's (composite key), and deleting the app deletes its reviews. Reviews are renamed
-- and deleted; columns and rows are added and removed; cells are written by the fill and by a
-- lawyer's override or check, and go only with their row, column or review (the foreign keys'
-- cascades, which RLS and grants do not stop).
ALTER TABLE reviews ADD CONSTRAINT reviews_app_fk FOREIGN KEY (org_id, app_id)
  REFERENCES apps (org_id, id) ON DELETE CASCADE;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON reviews TO lexdesk_app;
--> statement-breakpoint
GRANT SELECT, INSERT, DELETE ON review_columns TO lexdesk_app;
--> statement-breakpoint
GRANT SELECT, INSERT, DELETE ON review_rows TO lexdesk_app;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE ON review_cells TO lexdesk_app;
--> statement-breakpoint
DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['reviews', 'review_columns', 'review_rows', 'review_cells'] LOOP
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
