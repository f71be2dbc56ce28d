/**
 * Migrations on a PostgreSQL server shared by several Lexdesk processes (issue 28, decision 0064):
 * run as the owner role of DATABASE_MIGRATION_URL, one process at a time under a session advisory
 * lock, so two instances starting together never apply the same migration twice (the second waits,
 * then finds nothing pending). When the application connects as another role, that role is then
 * given what it needs and no more: membership of the NOLOGIN roles the code switches to
 * (lexdesk_app, lexdesk_app_scoped, lexdesk_worker, lexdesk_key_verifier, lexdesk_sql; their grants are the
 * tenant tables' privileges) and plain DML on the tables without row-level security (better-auth's
 * and the counters').
 */
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { drizzle } from 'drizzle-orm/node-postgres'
import { migrate } from 'drizzle-orm/node-postgres/migrator'
import pg from 'pg'

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations')

/** The advisory lock every Lexdesk process takes around its migrations (any constant will do). */
const MIGRATION_LOCK = `SELECT pg_advisory_lock(hashtext('lexdesk:migrations'))`

/** The roles of the migrations the application switches to (migrations 0001, 0004, 0033, 0038, 0047). */
const SWITCH_ROLES = [
  'lexdesk_app',
  'lexdesk_app_scoped',
  'lexdesk_worker',
  'lexdesk_key_verifier',
  'lexdesk_sql',
]

/**
 * Applies pending migrations through `migrationUrl`, holding the migration lock, then (when
 * `appUrl` logs in as another role) grants that role what the application uses. Throws
 * PostgreSQL's error when a migration fails; the lock goes with the connection.
 */
export async function migratePostgres(migrationUrl: string, appUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: migrationUrl })
  await client.connect()
  try {
    await client.query(MIGRATION_LOCK)
    await migrate(drizzle(client), { migrationsFolder })
    const appRole = appUrl === migrationUrl ? null : await loginRole(appUrl)
    const owner = (await client.query<{ r: string }>('SELECT current_user AS r')).rows[0]?.r
    if (appRole && appRole !== owner) await grantAppRole(client, appRole)
  } finally {
    await client.end()
  }
}

/** The role `url` logs in as (its user name, or the server's default when the URL names none). */
async function loginRole(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query<{ r: string }>('SELECT current_user AS r')).rows[0]!.r
  } finally {
    await client.end()
  }
}

/** Grants `role` the switch roles and DML on every table of `public` without row-level security. */
async function grantAppRole(client: pg.Client, role: string): Promise<void> {
  const ident = (name: string) => client.escapeIdentifier(name)
  await client.query(`GRANT ${SWITCH_ROLES.map(ident).join(', ')} TO ${ident(role)}`)
  await client.query(`GRANT USAGE ON SCHEMA public TO ${ident(role)}`)
  const open = await client.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relrowsecurity`,
  )
  for (const { name } of open.rows) {
    await client.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ${ident(name)} TO ${ident(role)}`)
  }
  await client.query(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${ident(role)}`)
}
