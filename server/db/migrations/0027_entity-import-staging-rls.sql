-- entity_imports (decision 0035) is a tenant table: RLS like every other (the organisation read
-- once per statement, decision 0030). An import adds its row when it starts staging, and deletes
-- it to publish its rows or after sweeping them.
GRANT SELECT, INSERT, DELETE ON entity_imports TO lexdesk_app;
--> statement-breakpoint
ALTER TABLE entity_imports ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE entity_imports FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON entity_imports
  USING (org_id = (SELECT NULLIF(current_setting('app.org_id', true), '')))
  WITH CHECK (org_id = (SELECT NULLIF(current_setting('app.org_id', true), '')));
--> statement-breakpoint
-- The entity counters (decision 0029) count only rows in sight: a row an import is staging
-- (its import_job_id has a row in entity_imports) is counted when the import publishes it, by
-- the import itself, and not when its sweep deletes it. Rows written otherwise have no
-- import_job_id, so an insert counts them at once, as before.
CREATE OR REPLACE FUNCTION entities_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO entity_counts AS c (org_id, app_id, type, entities)
    SELECT org_id, app_id, type, count(*)::int FROM new_rows
    WHERE import_job_id IS NULL
    GROUP BY org_id, app_id, type ORDER BY org_id, app_id, type
    ON CONFLICT (org_id, app_id, type) DO UPDATE SET entities = c.entities + excluded.entities;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE entity_counts c SET entities = c.entities - d.n
    FROM (SELECT org_id, app_id, type, count(*)::int AS n FROM old_rows o
          WHERE o.import_job_id IS NULL
             OR NOT EXISTS (SELECT FROM entity_imports s WHERE s.job_id = o.import_job_id)
          GROUP BY org_id, app_id, type) d
    WHERE c.org_id = d.org_id AND c.app_id IS NOT DISTINCT FROM d.app_id AND c.type = d.type;
  ELSE
    -- Only the net change of each group: an edit of a name or of data changes no counter.
    INSERT INTO entity_counts AS c (org_id, app_id, type, entities)
    SELECT org_id, app_id, type, sum(n)::int FROM (
      SELECT org_id, app_id, type, 1 AS n FROM new_rows r
      WHERE r.import_job_id IS NULL
         OR NOT EXISTS (SELECT FROM entity_imports s WHERE s.job_id = r.import_job_id)
      UNION ALL
      SELECT org_id, app_id, type, -1 AS n FROM old_rows r
      WHERE r.import_job_id IS NULL
         OR NOT EXISTS (SELECT FROM entity_imports s WHERE s.job_id = r.import_job_id)
    ) d
    GROUP BY org_id, app_id, type HAVING sum(n) <> 0 ORDER BY org_id, app_id, type
    ON CONFLICT (org_id, app_id, type) DO UPDATE SET entities = c.entities + excluded.entities;
  END IF;
  RETURN NULL;
END
$$;
