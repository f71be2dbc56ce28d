CREATE TABLE "tenant_tokens" (
	"jti" uuid PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"app_id" uuid,
	"scope" text NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "tenant_tokens" ADD CONSTRAINT "tenant_tokens_org_id_organization_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tenant_tokens" ADD CONSTRAINT "tenant_tokens_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tenant_tokens_org_created_idx" ON "tenant_tokens" USING btree ("org_id","created_at","jti");