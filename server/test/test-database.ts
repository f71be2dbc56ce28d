/** Test databases: private copies of the migrated template made by global-setup.ts. */
import { readFile } from 'node:fs/promises'
import { inject } from 'vitest'
import { openPglite, type Database } from '../db/client'
import { organization } from '../db/schema'
import { openPostgresCopy } from './postgres-test-database'

/**
 * Opens a private copy of the migrated template database: embedded PGlite, or with
 * TEST_DATABASE_URL a database of its own on that PostgreSQL server (dropped when closed).
 */
export async function openTestDatabase(): Promise<Database> {
  const server = process.env.TEST_DATABASE_URL
  if (server) return openPostgresCopy(server, inject('postgresTemplate'))
  const template = await readFile(inject('pgliteTemplate'))
  return openPglite({ loadDataDir: new Blob([new Uint8Array(template)]) })
}

/** Creates organisations with these ids (name and slug derived from each id), as the superuser. */
export async function insertOrganizations(database: Database, ...ids: string[]): Promise<void> {
  await database.db
    .insert(organization)
    .values(ids.map((id) => ({ id, name: `Org ${id}`, slug: `org-${id}` })))
}

let organizationCounter = 0
/** Creates `n` organisations with ids of their own (see insertOrganizations) and returns the ids. */
export async function newOrganizations(database: Database, n: number): Promise<string[]> {
  const ids = Array.from({ length: n }, () => `org-${++organizationCounter}-${crypto.randomUUID()}`)
  await insertOrganizations(database, ...ids)
  return ids
}
