import { PGlite } from '@electric-sql/pglite'
import { afterAll, describe, expect, it } from 'vitest'
import { analyzeChangedTables } from './pglite-auto-analyze'

const client = await PGlite.create()
afterAll(() => client.close())

describe('PGlite auto-analyze', () => {
  it('analyses a table changed past the threshold and leaves it until it changes again', async () => {
    await client.exec('create table cases (id int, title text)')
    await client.exec("insert into cases select g, 'Matter ' || g from generate_series(1, 1000) g")
    expect(await analyzeChangedTables(client)).toEqual(['public.cases'])
    const { rows } = await client.query<{ n: number }>(
      "select reltuples::int as n from pg_class where relname = 'cases'",
    )
    expect(rows[0]?.n).toBe(1000)
    expect(await analyzeChangedTables(client)).toEqual([])
    await client.exec('update cases set title = title where id <= 10')
    expect(await analyzeChangedTables(client)).toEqual([])
  })
})
