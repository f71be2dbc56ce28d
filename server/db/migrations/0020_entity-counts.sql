CREATE TABLE "entity_counts" (
	"org_id" text NOT NULL,
	"app_id" uuid,
	"type" text NOT NULL,
	"entities" integer NOT NULL,
	CONSTRAINT "entity_counts_key" UNIQUE NULLS NOT DISTINCT("org_id","app_id","type")
);
--> statement-breakpoint
ALTER TABLE "entity_counts" ADD CONSTRAINT "entity_counts_org_id_organization_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;