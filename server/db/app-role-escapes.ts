/**
 * Why the application's database role could leave the tenant confinement of row-level security
 * (issue 28, decision 0064): a superuser or a BYPASSRLS role skips every policy, and a table's
 * owner (or a member of the owner's role) may turn its policies off. Empty when none holds: then
 * `RESET ROLE` or `set_config('role', …)` inside a tenant transaction only returns to a role that
 * the same policies confine.
 */
import { sql } from 'drizzle-orm'
import type { Db } from './client'

/** The reasons, in words for the start-up warning; [] for a least-privileged role. */
export async function appRoleEscapes(db: Db): Promise<string[]> {
  const result = await db.execute(sql`
    SELECT r.rolname AS role, r.rolsuper AS superuser, r.rolbypassrls AS bypass,
      (SELECT count(*)::int FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relrowsecurity
          AND pg_has_role(r.oid, c.relowner, 'MEMBER')) AS owned
    FROM pg_roles r WHERE r.rolname = current_user`)
  const row = (
    result as unknown as {
      rows: Array<{ role: string; superuser: boolean; bypass: boolean; owned: number }>
    }
  ).rows[0]
  if (!row) return []
  return [
    ...(row.superuser ? [`${row.role} is a superuser`] : []),
    ...(row.bypass ? [`${row.role} has BYPASSRLS`] : []),
    ...(row.owned > 0
      ? [`${row.role} owns (or may act as the owner of) ${row.owned} tenant tables`]
      : []),
  ]
}
