/**
 * Vitest global setup: creates one migrated PGlite database (initdb + migrations take ~5 s) and
 * dumps it to a temporary tarball; each test app loads a private copy (~0.7 s), see test-app.ts.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { TestProject } from 'vitest/node'
import { openPglite } from '../db/client'
import type { PgliteThread } from '../db/pglite-thread'

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string
  }
}

export default async function setup(project: TestProject) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'lexdesk-template-'))
  const database = await openPglite({})
  const client = (database.db as unknown as { $client: PgliteThread }).$client
  const dump = await client.dumpDataDir()
  await database.close()
  const file = path.join(dir, 'template.tar.gz')
  await writeFile(file, new Uint8Array(await dump.arrayBuffer()))
  project.provide('pgliteTemplate', file)
  return async () => {
    await rm(dir, { recursive: true, force: true })
  }
}
