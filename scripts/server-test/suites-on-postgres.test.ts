import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { LEFT_OUT, SUITES_NEEDING_PGVECTOR, SUITES_ON_POSTGRES } from './suites-on-postgres'

/** The server's test files that open a test database (directly or through the test app). */
function filesWithTestDatabase(): string[] {
  return readdirSync('server', { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => `server/${file}`)
    .filter((file) => /test\/test-(app|database)'/.test(readFileSync(file, 'utf8')))
    .sort()
}

describe('the suites test:server runs on PostgreSQL', () => {
  it('names every server file with a test database once: run, or left out with a reason', () => {
    const named = [...SUITES_ON_POSTGRES, ...Object.keys(LEFT_OUT)]
    expect(new Set(named).size).toBe(named.length)
    expect(named.sort()).toEqual(filesWithTestDatabase())
    expect(Object.values(LEFT_OUT).every((why) => why.length > 20)).toBe(true)
  })

  it('needs pgvector only for files it runs', () => {
    for (const file of SUITES_NEEDING_PGVECTOR) expect(SUITES_ON_POSTGRES).toContain(file)
    for (const file of SUITES_ON_POSTGRES) expect(existsSync(file)).toBe(true)
  })
})
