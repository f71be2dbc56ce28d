-- document_counts (decision 7) is a tenant table: RLS like every other, and the application role
-- may read and maintain its own organisation's counters. They are written only by the trigger
-- below, which runs as the caller (SECURITY INVOKER), so the counters of a document change only
-- where the caller may see that document's organisation. Writes made outside a tenant
-- transaction (an organisation deleted with its documents) leave the counters untouched, and the
-- organisation's counters go with it (ON DELETE CASCADE).
--
-- Counters for the documents that exist already. The migrating role may own the tables without
-- being a superuser, and FORCE ROW LEVEL SECURITY would hide every document from it, so the
-- force is lifted on documents for the backfill only, before document_counts gets its own.
ALTER TABLE documents NO FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
INSERT INTO document_counts (org_id, app_id, document_type, documents)
SELECT org_id, app_id, document_type, count(*)::int FROM documents
GROUP BY org_id, app_id, document_type;
--> statement-breakpoint
ALTER TABLE documents FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE ON document_counts TO lexdesk_app;
--> statement-breakpoint
ALTER TABLE document_counts ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE document_counts FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON document_counts
  USING (org_id = NULLIF(current_setting('app.org_id', true), ''))
  WITH CHECK (org_id = NULLIF(current_setting('app.org_id', true), ''));
--> statement-breakpoint
CREATE FUNCTION documents_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    UPDATE document_counts SET documents = documents - 1
    WHERE org_id = OLD.org_id AND app_id IS NOT DISTINCT FROM OLD.app_id
      AND document_type = OLD.document_type;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO document_counts AS c (org_id, app_id, document_type, documents)
    VALUES (NEW.org_id, NEW.app_id, NEW.document_type, 1)
    ON CONFLICT (org_id, app_id, document_type) DO UPDATE SET documents = c.documents + 1;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER documents_count AFTER INSERT OR DELETE OR UPDATE OF org_id, app_id, document_type
  ON documents FOR EACH ROW EXECUTE FUNCTION documents_count();
