/**
 * Vitest global setup: creates one migrated database and provides it to the test files, which
 * each open private copies (test-database.ts). On embedded PGlite (the default) it is dumped to a
 * temporary uncompressed tarball (initdb + migrations take ~5 s; loading a copy ~0.7 s, gunzip
 * would add ~0.4 s of CPU to each of the run's hundreds of copies). The same initdb, dumped
 * before migrating, is the SQL runner sandboxes' empty database (`sqlSandboxTemplate`: the file
 * SqlSandboxes keeps, decision 0091), so no test app or child server runs an initdb of its own
 * for it (7–28 s each on a loaded 2-core machine; decision 0094). With
 * TEST_DATABASE_URL (a PostgreSQL superuser's URL, as `npm run test:server` sets) it is a template
 * database on that server, which each copy is created from (CREATE DATABASE … TEMPLATE).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { openPglite, openPostgres } from '../db/client'
import type { PgliteThread } from '../db/pglite-thread'
import { appUrl, createTestAppRole, databaseUrl } from './postgres-test-database'

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string
    /** The SQL sandboxes' empty PGlite (an uncompressed tarball), or '' on PostgreSQL. */
    sqlSandboxTemplate: string
    /** The template database's name on TEST_DATABASE_URL's server, or '' on PGlite. */
    postgresTemplate: string
  }
}

export default async function setup(project: TestProject) {
  const server = process.env.TEST_DATABASE_URL
  if (server) return postgresTemplate(project, server)
  const dir = await mkdtemp(path.join(os.tmpdir(), 'lexdesk-template-'))
  const sandboxFile = path.join(dir, 'sql-sandbox-template.tar')
  const database = await openPglite({
    beforeMigrating: async (client) => {
      await writeFile(sandboxFile, new Uint8Array(await (await client.dumpDataDir()).arrayBuffer()))
    },
  })
  const client = (database.db as unknown as { $client: PgliteThread }).$client
  const dump = await client.dumpDataDir()
  await database.close()
  const file = path.join(dir, 'template.tar')
  await writeFile(file, new Uint8Array(await dump.arrayBuffer()))
  project.provide('pgliteTemplate', file)
  project.provide('sqlSandboxTemplate', sandboxFile)
  project.provide('postgresTemplate', '')
  return async () => {
    await rm(dir, { recursive: true, force: true })
  }
}

/** Creates and migrates the template database on `server`; the teardown drops it. */
async function postgresTemplate(project: TestProject, server: string) {
  const name = `lexdesk_template_${process.pid}`
  const admin = new pg.Client({ connectionString: server })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  await createTestAppRole(server)
  // Migrated as the superuser, granting the app's role its privileges: copies inherit the grants.
  const database = await openPostgres(appUrl(server, name), undefined, databaseUrl(server, name))
  await database.close()
  project.provide('pgliteTemplate', '')
  project.provide('sqlSandboxTemplate', '')
  project.provide('postgresTemplate', name)
  return async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await admin.end()
  }
}
