/** Opens a private copy of the migrated template database made by global-setup.ts. */
import { readFile } from 'node:fs/promises'
import { inject } from 'vitest'
import { openPglite, type Database } from '../db/client'

export async function openTestDatabase(): Promise<Database> {
  const template = await readFile(inject('pgliteTemplate'))
  return openPglite({ loadDataDir: new Blob([new Uint8Array(template)]) })
}
