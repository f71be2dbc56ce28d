-- Every tenant_isolation policy compares org_id with the organisation read ONCE per statement
-- (decision 0030). Written as `org_id = NULLIF(current_setting(…), '')`, the setting was read
-- again for every row a scan filtered (a search recheck, a count, a vector scan's candidates);
-- wrapped in a scalar sub-select it becomes an InitPlan, evaluated once, and still serves as an
-- index condition. Same rows, same meaning: only the evaluation changes. Tables added later must
-- use this form; server/db/rls-coverage.test.ts checks it from the catalog.
DO $$
DECLARE
  t record;
BEGIN
  FOR t IN SELECT schemaname, tablename FROM pg_policies
           WHERE policyname = 'tenant_isolation' AND schemaname = 'public'
  LOOP
    EXECUTE format(
      'ALTER POLICY tenant_isolation ON %I.%I'
      ' USING (org_id = (SELECT NULLIF(current_setting(%L, true), %L)))'
      ' WITH CHECK (org_id = (SELECT NULLIF(current_setting(%L, true), %L)))',
      t.schemaname, t.tablename, 'app.org_id', '', 'app.org_id', '');
  END LOOP;
END $$;
