-- Issue 24 (decisions 0052, 0055), hand-written: carry this whole file over if the migration is
-- renumbered. Storage buckets and objects join the realtime allow-list
-- (server/realtime/realtime-tables.ts), so the storage screen refreshes live: the same
-- statement-level triggers as 0036_realtime-triggers.sql (neither table has an app_id).
CREATE TRIGGER "storage_buckets_notify_insert" AFTER INSERT ON "storage_buckets" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lexdesk_notify_change('');--> statement-breakpoint
CREATE TRIGGER "storage_buckets_notify_update" AFTER UPDATE ON "storage_buckets" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lexdesk_notify_change('');--> statement-breakpoint
CREATE TRIGGER "storage_buckets_notify_delete" AFTER DELETE ON "storage_buckets" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION lexdesk_notify_change('');--> statement-breakpoint
CREATE TRIGGER "storage_objects_notify_insert" AFTER INSERT ON "storage_objects" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lexdesk_notify_change('');--> statement-breakpoint
CREATE TRIGGER "storage_objects_notify_update" AFTER UPDATE ON "storage_objects" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lexdesk_notify_change('');--> statement-breakpoint
CREATE TRIGGER "storage_objects_notify_delete" AFTER DELETE ON "storage_objects" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION lexdesk_notify_change('');
