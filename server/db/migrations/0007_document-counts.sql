CREATE TABLE "document_counts" (
	"org_id" text NOT NULL,
	"app_id" uuid,
	"document_type" text NOT NULL,
	"documents" integer NOT NULL,
	CONSTRAINT "document_counts_key" UNIQUE NULLS NOT DISTINCT("org_id","app_id","document_type")
);
--> statement-breakpoint
ALTER TABLE "document_counts" ADD CONSTRAINT "document_counts_org_id_organization_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;