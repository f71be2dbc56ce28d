import { readFile } from 'node:fs/promises'
import { describe, expect, it, inject } from 'vitest'
import { organization } from './schema'
import { openPglite } from './client'

describe('the database statement log', () => {
  it('logs each statement’s SQL at debug level but never its bound parameters', async () => {
    const lines: { sql: string }[] = []
    const template = await readFile(inject('pgliteTemplate'))
    const database = await openPglite({
      loadDataDir: new Blob([new Uint8Array(template)]),
      log: { debug: (fields) => lines.push(fields) },
    })
    try {
      await database.db
        .insert(organization)
        .values({ id: 'org-1', name: 'Privileged Client Name', slug: 'privileged-client' })
      const logged = JSON.stringify(lines)
      expect(logged).toContain('insert into \\"organization\\"')
      expect(logged).not.toContain('Privileged Client Name')
      expect(logged).not.toContain('privileged-client')
    } finally {
      await database.close()
    }
  })
})
