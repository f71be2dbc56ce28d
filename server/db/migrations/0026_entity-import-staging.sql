CREATE TABLE "entity_imports" (
	"job_id" uuid PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "entities" ADD COLUMN "import_job_id" uuid;--> statement-breakpoint
ALTER TABLE "entity_imports" ADD CONSTRAINT "entity_imports_org_id_organization_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "entities_import_job_idx" ON "entities" USING btree ("import_job_id") WHERE import_job_id IS NOT NULL;