/**
 * Data directories for child servers (child-server.ts) that start as a server which ran before:
 * holding the run's migrated database and the SQL sandboxes' empty one (global-setup.ts), so the
 * child's first start runs no initdb and no migration (tens of seconds of CPU on a loaded 2-core
 * machine, beside the test's own work; decision 0094). What such a test kills and restarts is a
 * running server, not a first start (Playwright's global setup starts one on a fresh directory).
 */
import { copyFile, mkdtemp, readFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { inject } from 'vitest'
import { PgliteThread } from '../db/pglite-thread'

/**
 * A new temporary directory (named `prefix` + random) laid out as server/main.ts lays out
 * LEXDESK_DATA_DIR: `pglite/` a copy of the migrated template, `sql-sandbox-template.tar` the
 * sandboxes' empty database. On PostgreSQL test runs (no PGlite template) it is left empty.
 */
export async function seededDataDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix))
  const template = inject('pgliteTemplate')
  if (!template) return dir
  const bytes = await readFile(template)
  const thread = await PgliteThread.open({
    dataDir: path.join(dir, 'pglite'),
    loadDataDir: new Blob([new Uint8Array(bytes)]),
  })
  await thread.close()
  await copyFile(inject('sqlSandboxTemplate'), path.join(dir, 'sql-sandbox-template.tar'))
  return dir
}
