-- entity_counts (decision 0029) is a tenant table: RLS like every other, and the application role
-- may read and maintain its own organisation's counters. They are written only by the statement
-- triggers below, which run as the caller (SECURITY INVOKER) once per statement with the changed
-- rows grouped, so an import of thousands of rows adds one counter update per (app, type), not one
-- per row. A delete made outside a tenant transaction (an organisation deleted with its entities)
-- updates no visible counter, and the organisation's counters go with it (ON DELETE CASCADE).
--
-- Counters for the entities that exist already: FORCE would hide every entity from a migrating
-- role that owns the tables without being a superuser, so it is lifted for the backfill only.
ALTER TABLE entities NO FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
INSERT INTO entity_counts (org_id, app_id, type, entities)
SELECT org_id, app_id, type, count(*)::int FROM entities GROUP BY org_id, app_id, type;
--> statement-breakpoint
ALTER TABLE entities FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE ON entity_counts TO lexdesk_app;
--> statement-breakpoint
ALTER TABLE entity_counts ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE entity_counts FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON entity_counts
  USING (org_id = NULLIF(current_setting('app.org_id', true), ''))
  WITH CHECK (org_id = NULLIF(current_setting('app.org_id', true), ''));
--> statement-breakpoint
-- Transition tables cannot be shared by several events, hence one trigger per event on one
-- function; groups are taken in key order so concurrent statements lock counters in one order.
CREATE FUNCTION entities_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO entity_counts AS c (org_id, app_id, type, entities)
    SELECT org_id, app_id, type, count(*)::int FROM new_rows
    GROUP BY org_id, app_id, type ORDER BY org_id, app_id, type
    ON CONFLICT (org_id, app_id, type) DO UPDATE SET entities = c.entities + excluded.entities;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE entity_counts c SET entities = c.entities - d.n
    FROM (SELECT org_id, app_id, type, count(*)::int AS n FROM old_rows
          GROUP BY org_id, app_id, type) d
    WHERE c.org_id = d.org_id AND c.app_id IS NOT DISTINCT FROM d.app_id AND c.type = d.type;
  ELSE
    -- Only the net change of each group: an edit of a name or of data changes no counter.
    INSERT INTO entity_counts AS c (org_id, app_id, type, entities)
    SELECT org_id, app_id, type, sum(n)::int FROM (
      SELECT org_id, app_id, type, 1 AS n FROM new_rows
      UNION ALL
      SELECT org_id, app_id, type, -1 AS n FROM old_rows
    ) d
    GROUP BY org_id, app_id, type HAVING sum(n) <> 0 ORDER BY org_id, app_id, type
    ON CONFLICT (org_id, app_id, type) DO UPDATE SET entities = c.entities + excluded.entities;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER entities_count_insert AFTER INSERT ON entities
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION entities_count();
--> statement-breakpoint
CREATE TRIGGER entities_count_delete AFTER DELETE ON entities
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION entities_count();
--> statement-breakpoint
CREATE TRIGGER entities_count_update AFTER UPDATE ON entities
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION entities_count();
