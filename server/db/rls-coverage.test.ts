/**
 * Row-level security covers every tenant table, found from the catalog rather than a list: each
 * table with an `org_id` column must have RLS enabled and forced, a policy, and exactly the
 * grants to `lexdesk_app` documented in docs/authorization.md, which this test reads.
 */
import { readFile } from 'node:fs/promises'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from './client'
import { openTestDatabase } from '../test/test-database'

const PRIVILEGES = ['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER']

let database: Database
beforeAll(async () => {
  database = await openTestDatabase()
})
afterAll(() => database.close())

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await database.db.execute(query)) as unknown as { rows: T[] }).rows
}

/** The grants table of docs/authorization.md (after the `rls-grants` marker): table → privileges. */
async function documentedGrants(): Promise<Map<string, string[]>> {
  const markdown = await readFile(new URL('../../docs/authorization.md', import.meta.url), 'utf8')
  const section = markdown.split('<!-- rls-grants')[1] ?? ''
  const grants = new Map<string, string[]>()
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim())
    const table = cells[1]?.match(/^`(\w+)`$/)?.[1]
    if (!table) continue
    grants.set(
      table,
      (cells[2] ?? '')
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean)
        .sort(),
    )
  }
  return grants
}

describe('row-level security coverage', () => {
  it('enables and forces RLS with a policy on every table that has an org_id column', async () => {
    const tables = await rows<{
      name: string
      enabled: boolean
      forced: boolean
      policies: number
    }>(sql`
      select c.relname as name, c.relrowsecurity as enabled, c.relforcerowsecurity as forced,
             (select count(*) from pg_policy p where p.polrelid = c.oid)::int as policies
      from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      join pg_attribute a on a.attrelid = c.oid and a.attname = 'org_id' and not a.attisdropped
      where n.nspname = 'public' and c.relkind in ('r', 'p')
      order by c.relname`)
    expect(tables.map((t) => t.name)).toEqual(
      expect.arrayContaining(['analyses', 'apps', 'audit_logs', 'documents']),
    )
    for (const table of tables) {
      expect(table, `${table.name}: RLS enabled, forced, with a policy`).toMatchObject({
        enabled: true,
        forced: true,
      })
      expect(table.policies, `${table.name} has no policy`).toBeGreaterThanOrEqual(1)
    }
  })

  it('reads the organisation once per statement in every tenant_isolation policy', async () => {
    const policies = await rows<{ table: string; qual: string; check: string | null }>(sql`
      select tablename as table, qual, with_check as check from pg_policies
      where schemaname = 'public' and policyname = 'tenant_isolation' order by tablename`)
    expect(policies.length).toBeGreaterThanOrEqual(10)
    // An InitPlan (decision 0030): `org_id = (SELECT NULLIF(current_setting('app.org_id', …)))`.
    const once =
      /^\(org_id = \( SELECT NULLIF\(current_setting\('app\.org_id'::text, true\), ''::text\) AS "nullif"\)\)$/
    for (const policy of policies) {
      expect(policy.qual, `${policy.table}: USING`).toMatch(once)
      expect(policy.check, `${policy.table}: WITH CHECK`).toMatch(once)
    }
  })

  it('confines app-scoped principals on every table that has an app_id column', async () => {
    const tables = await rows<{
      name: string
      restrictive: boolean | null
      roles: string | null
      qual: string | null
      check: string | null
    }>(sql`
      select c.relname as name, p.permissive = 'RESTRICTIVE' as restrictive,
             array_to_string(p.roles, ',') as roles, p.qual, p.with_check as check
      from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      join pg_attribute o on o.attrelid = c.oid and o.attname = 'org_id' and not o.attisdropped
      join pg_attribute a on a.attrelid = c.oid and a.attname = 'app_id' and not a.attisdropped
      left join pg_policies p on p.schemaname = 'public' and p.tablename = c.relname
                              and p.policyname = 'app_isolation'
      where n.nspname = 'public' and c.relkind in ('r', 'p')
      order by c.relname`)
    expect(tables.map((t) => t.name)).toEqual(
      expect.arrayContaining(['documents', 'entities', 'tenant_tokens']),
    )
    // Decision 0048: for lexdesk_app_scoped, only the rows of `app.app_id` (read once).
    const clause =
      /^\(app_id = \( SELECT \(NULLIF\(current_setting\('app\.app_id'::text, true\), ''::text\)\)::uuid AS "nullif"\)\)$/
    for (const table of tables) {
      expect(table, `${table.name}: a RESTRICTIVE app_isolation policy`).toMatchObject({
        restrictive: true,
        roles: 'lexdesk_app_scoped',
      })
      expect(table.qual, `${table.name}: USING`).toMatch(clause)
      expect(table.check, `${table.name}: WITH CHECK`).toMatch(clause)
    }
  })

  it('gives lexdesk_app exactly the table grants documented in docs/authorization.md', async () => {
    const documented = await documentedGrants()
    expect(documented.size, 'no grants table found in docs/authorization.md').toBeGreaterThan(0)
    const held = await rows<{ name: string; privilege: string }>(sql`
      select c.relname as name, p.privilege
      from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      cross join unnest(string_to_array(${PRIVILEGES.join(',')}, ',')) as p(privilege)
      where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm')
        and has_table_privilege('lexdesk_app', c.oid, p.privilege)`)
    const actual = new Map<string, string[]>()
    for (const { name, privilege } of held)
      actual.set(name, [...(actual.get(name) ?? []), privilege])
    for (const privileges of actual.values()) privileges.sort()
    expect(Object.fromEntries(actual)).toEqual(Object.fromEntries(documented))
  })

  it('documents every tenant table in the grants table', async () => {
    const documented = await documentedGrants()
    const tenantTables = await rows<{ name: string }>(sql`
      select c.relname as name from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      join pg_attribute a on a.attrelid = c.oid and a.attname = 'org_id' and not a.attisdropped
      where n.nspname = 'public' and c.relkind in ('r', 'p')`)
    for (const { name } of tenantTables) {
      expect([...documented.keys()], `${name} is missing from docs/authorization.md`).toContain(
        name,
      )
    }
  })

  it('opens rows past one organisation only to the system roles that need it, whatever the policy', async () => {
    // Policies beside tenant_isolation and app_isolation, each for one NOLOGIN role the code
    // switches to for work across organisations (decisions 0010, 0047, 0080): a policy for
    // PUBLIC, for a tenant role or for another role fails here, whatever its name.
    const SYSTEM_POLICIES: Record<string, string> = {
      import_publisher: '{lexdesk_import_publisher}',
      job_runner: '{lexdesk_worker}',
      key_verifier: '{lexdesk_key_verifier}',
    }
    const policies = await rows<{
      table: string
      name: string
      permissive: string
      roles: string
    }>(sql`
      select tablename as table, policyname as name, permissive, roles::text as roles
      from pg_policies
      where schemaname = 'public' and policyname not in ('tenant_isolation', 'app_isolation')
      order by tablename, policyname`)
    expect(policies.length).toBeGreaterThan(0)
    for (const policy of policies) {
      expect(
        policy.roles,
        `${policy.table}.${policy.name} (${policy.permissive} for ${policy.roles})`,
      ).toBe(SYSTEM_POLICIES[policy.name])
    }
    // The roles a tenant's statements run as can reach none of those roles' rows.
    const memberships = await rows<{ tenant: string; system: string }>(sql`
      select t.rolname as tenant, s.rolname as system
      from pg_roles t cross join pg_roles s
      where t.rolname in ('lexdesk_app', 'lexdesk_app_scoped', 'lexdesk_sql')
        and s.rolname in ('lexdesk_import_publisher', 'lexdesk_worker', 'lexdesk_key_verifier')
        and pg_has_role(t.oid, s.oid, 'MEMBER')`)
    expect(memberships).toEqual([])
  })

  it('has no SECURITY DEFINER function but the reviewed ones', async () => {
    // A function that runs as its owner bypasses the caller's confinement: each is a decision
    // (legal_hold_guard: decision 0147, a trigger reading only the deleted row's organisation's
    // holds; publish_import: decision 0080; purge_audit_entries: decision 0148, the one path that
    // deletes audit entries, by the caller's organisation's own policy) and a line here.
    const functions = await rows<{ name: string }>(sql`
      select p.proname as name from pg_proc p
      join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'public' and p.prosecdef order by p.proname`)
    expect(functions.map((f) => f.name)).toEqual([
      'legal_hold_guard',
      'publish_import',
      'purge_audit_entries',
    ])
  })

  it('searches the temporary schema last in every SECURITY DEFINER function', async () => {
    // Without pg_temp named last, a caller's temporary table named like one the function reads
    // (legal_holds, retention_policies, audit_logs) would be read instead (migration 0063).
    const functions = await rows<{ name: string; config: string[] | null }>(sql`
      select p.proname as name, p.proconfig as config from pg_proc p
      join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'public' and p.prosecdef order by p.proname`)
    expect(functions.length).toBeGreaterThan(0)
    for (const f of functions)
      expect([f.name, f.config]).toEqual([f.name, ['search_path=pg_catalog, public, pg_temp']])
  })
})
