CREATE TABLE "sql_queries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" text NOT NULL,
	"actor" text NOT NULL,
	"sql" text NOT NULL,
	"row_count" integer,
	"duration_ms" integer,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sql_queries" ADD CONSTRAINT "sql_queries_org_id_organization_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sql_queries_org_actor_created_idx" ON "sql_queries" USING btree ("org_id","actor","created_at","id");