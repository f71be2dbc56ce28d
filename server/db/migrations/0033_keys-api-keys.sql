CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" text NOT NULL,
	"app_id" uuid,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"key_hash" text NOT NULL,
	"scopes" text[] NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_org_id_organization_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_app_fk" FOREIGN KEY ("org_id","app_id") REFERENCES "public"."apps"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_key_hash_idx" ON "api_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "api_keys_org_created_idx" ON "api_keys" USING btree ("org_id","created_at");--> statement-breakpoint
-- ---- Hand-written (issue 23, decision 0047): carry this block over if the migration is renumbered.
-- api_keys is a tenant table: the application role lists, creates and revokes its organisation's
-- keys only (the organisation read once per statement, decision 0030). No DELETE: a revoked key
-- stays, so the audit log's credential ids keep naming a key.
-- lexdesk_key_verifier: the role of the API-key verifier (server/features/api-keys), which finds
-- a key by the digest a request presents before any organisation is known; it may read keys and
-- their creators' roles and write a key's last use, nothing else.
GRANT SELECT, INSERT, UPDATE ON api_keys TO lexdesk_app;
--> statement-breakpoint
ALTER TABLE api_keys ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE api_keys FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON api_keys
  USING (org_id = (SELECT NULLIF(current_setting('app.org_id', true), '')))
  WITH CHECK (org_id = (SELECT NULLIF(current_setting('app.org_id', true), '')));
--> statement-breakpoint
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'lexdesk_key_verifier') THEN
    CREATE ROLE lexdesk_key_verifier NOLOGIN NOSUPERUSER NOBYPASSRLS;
  END IF;
END $$;
--> statement-breakpoint
DO $$ BEGIN
  EXECUTE format('GRANT lexdesk_key_verifier TO %I', current_user);
EXCEPTION WHEN others THEN NULL; -- already a member, or a superuser that needs no grant
END $$;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO lexdesk_key_verifier;
--> statement-breakpoint
GRANT SELECT, UPDATE (last_used_at) ON api_keys TO lexdesk_key_verifier;
--> statement-breakpoint
CREATE POLICY key_verifier ON api_keys TO lexdesk_key_verifier USING (true) WITH CHECK (true);
--> statement-breakpoint
-- The key acts with its creator's current role: the verifier reads that one membership with it.
GRANT SELECT (organization_id, user_id, role) ON member TO lexdesk_key_verifier;
-- ---- End of the hand-written block.
