/**
 * The SQL runner's transaction settings on the application's database (decision 0061): read
 * only from the start, the role `lexdesk_sql` (which reads only the sql_* views, under RLS), the
 * organisation, and PostgreSQL's `statement_timeout`, in one statement of ours before any text of
 * the user. The sandbox's loading (sql-sandboxes.ts) reads the views the same way.
 */
import { sql } from 'drizzle-orm'

/** The time cap of a query, in milliseconds: `statement_timeout` on PostgreSQL, the sandbox's on PGlite. */
export const SQL_STATEMENT_TIMEOUT_MS = 5_000

/** The statement that confines a transaction to the runner's role and `orgId`'s rows. */
export function enterSqlRunner(orgId: string) {
  return sql`SELECT set_config('transaction_read_only', 'on', true),
    set_config('role', 'lexdesk_sql', true),
    set_config('app.org_id', ${orgId}, true),
    set_config('statement_timeout', ${String(SQL_STATEMENT_TIMEOUT_MS)}, true)`
}
