/**
 * Test databases on a PostgreSQL server (TEST_DATABASE_URL, a superuser's URL): each a copy of
 * the migrated template global-setup.ts made, dropped when closed, so test files stay as
 * independent as on PGlite. The app under test connects as TEST_APP_ROLE, least-privileged as in
 * server mode (decision 0064); the tests' own handle stays the superuser's, to arrange rows of
 * several organisations and look at what an attack changed.
 */
import pg from 'pg'
import { openPostgres, type Database } from '../db/client'

/** `server` (a PostgreSQL URL) with its database name replaced by `name`. */
export function databaseUrl(server: string, name: string): string {
  const url = new URL(server)
  url.pathname = `/${name}`
  return url.toString()
}

/**
 * The application's login role of test databases: no superuser, no BYPASSRLS, owning nothing; the
 * migrations grant it what the app uses (migrate-postgres.ts), as `lexdesk_login` in server mode.
 */
export const TEST_APP_ROLE = 'lexdesk_test_app'

/** `server`'s URL for database `name` logged in as TEST_APP_ROLE (trust or peer authentication). */
export function appUrl(server: string, name: string): string {
  const url = new URL(databaseUrl(server, name))
  url.username = TEST_APP_ROLE
  url.password = ''
  return url.toString()
}

/** Runs `statement` (no parameters: CREATE and DROP DATABASE take none) on `server`. */
async function onServer(server: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: server })
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}

/** Creates TEST_APP_ROLE on `server` unless it exists (roles are the server's, not a database's). */
export async function createTestAppRole(server: string): Promise<void> {
  await onServer(
    server,
    `DO $$ BEGIN CREATE ROLE ${TEST_APP_ROLE} LOGIN NOSUPERUSER NOBYPASSRLS;
     EXCEPTION WHEN duplicate_object THEN NULL; END $$`,
  )
}

/**
 * Creates a database from `template` on `server` and opens it twice: `database` as the
 * superuser, `app` as TEST_APP_ROLE. Closing `database` closes both and drops the copy.
 */
export async function openPostgresCopy(
  server: string,
  template: string,
): Promise<{ database: Database; app: Database }> {
  const name = `lexdesk_test_${crypto.randomUUID().replaceAll('-', '')}`
  await onServer(server, `CREATE DATABASE ${name} TEMPLATE ${template}`)
  const owner = databaseUrl(server, name)
  const database = await openPostgres(owner)
  const app = await openPostgres(appUrl(server, name), undefined, owner)
  return {
    app,
    database: {
      ...database,
      async close() {
        await app.close()
        await database.close()
        await onServer(server, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      },
    },
  }
}
