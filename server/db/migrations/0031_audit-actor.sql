-- Issue 22: every audit row says what kind of actor wrote it (a check over server/db/actor-types.ts,
-- widened by the migration of a later credential kind) and through which credential; the audit
-- viewer reads newest first by (created_at, id), per organisation and per action (decision 0046).
DROP INDEX "audit_logs_org_created_idx";--> statement-breakpoint
ALTER TABLE "audit_logs" ADD COLUMN "credential_id" text;--> statement-breakpoint
CREATE INDEX "audit_logs_org_created_id_idx" ON "audit_logs" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "audit_logs_org_action_created_idx" ON "audit_logs" USING btree ("org_id","action","created_at","id");--> statement-breakpoint
ALTER TABLE "audit_logs" ADD CONSTRAINT "audit_logs_actor_type_check" CHECK (actor_type IN ('user', 'system', 'api_key', 'gpt'));