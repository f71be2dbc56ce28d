DROP INDEX "documents_org_created_idx";--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "app_id" uuid;--> statement-breakpoint
CREATE UNIQUE INDEX "apps_org_id_idx" ON "apps" USING btree ("org_id","id");--> statement-breakpoint
CREATE INDEX "documents_org_app_created_idx" ON "documents" USING btree ("org_id","app_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "documents_org_created_idx" ON "documents" USING btree ("org_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);