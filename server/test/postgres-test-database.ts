/**
 * Test databases on a PostgreSQL server (TEST_DATABASE_URL, a superuser's URL): each a copy of
 * the migrated template global-setup.ts made, dropped when closed, so test files stay as
 * independent as on PGlite.
 */
import pg from 'pg'
import { openPostgres, type Database } from '../db/client'

/** `server` (a PostgreSQL URL) with its database name replaced by `name`. */
export function databaseUrl(server: string, name: string): string {
  const url = new URL(server)
  url.pathname = `/${name}`
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

/** Creates a database from `template` on `server` and opens it; closing it drops it. */
export async function openPostgresCopy(server: string, template: string): Promise<Database> {
  const name = `lexdesk_test_${crypto.randomUUID().replaceAll('-', '')}`
  await onServer(server, `CREATE DATABASE ${name} TEMPLATE ${template}`)
  const database = await openPostgres(databaseUrl(server, name))
  return {
    ...database,
    async close() {
      await database.close()
      await onServer(server, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    },
  }
}
