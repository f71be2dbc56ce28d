/** Test databases: private copies of the migrated template made by global-setup.ts. */
import { readFile } from 'node:fs/promises'
import { inject } from 'vitest'
import { openPglite, type Database } from '../db/client'
import { organization } from '../db/schema'
import { openPostgresCopy } from './postgres-test-database'

/**
 * Opens a private copy of the migrated template database: embedded PGlite, or with
 * TEST_DATABASE_URL a database of its own on that PostgreSQL server (dropped when closed), as
 * its superuser.
 */
export async function openTestDatabase(): Promise<Database> {
  return (await openTestDatabases()).database
}

/**
 * openTestDatabase's copy with the handle an app under test uses: on PostgreSQL `app` logs in as
 * the least-privileged TEST_APP_ROLE (postgres-test-database.ts); on PGlite, whose one session is
 * the superuser's, it is `database` itself. Closing `database` closes both.
 */
export async function openTestDatabases(): Promise<{ database: Database; app: Database }> {
  const server = process.env.TEST_DATABASE_URL
  if (server) return openPostgresCopy(server, inject('postgresTemplate'))
  const template = await readFile(inject('pgliteTemplate'))
  const database = await openPglite({ loadDataDir: new Blob([new Uint8Array(template)]) })
  return { database, app: database }
}

/** Creates organisations with these ids (name and slug derived from each id), as the superuser. */
export async function insertOrganisations(database: Database, ...ids: string[]): Promise<void> {
  await database.db
    .insert(organization)
    .values(ids.map((id) => ({ id, name: `Org ${id}`, slug: `org-${id}` })))
}

let organisationCounter = 0
/** Creates `n` organisations with ids of their own (see insertOrganisations) and returns the ids. */
export async function newOrganisations(database: Database, n: number): Promise<string[]> {
  const ids = Array.from({ length: n }, () => `org-${++organisationCounter}-${crypto.randomUUID()}`)
  await insertOrganisations(database, ...ids)
  return ids
}
