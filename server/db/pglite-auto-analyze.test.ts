import { PGlite } from '@electric-sql/pglite'
import { afterAll, describe, expect, it } from 'vitest'
import { analyzeChangedTables, LARGE_TABLE_STATISTICS_TARGET } from './pglite-auto-analyze'

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

describe('PGlite auto-analyze of a large table', () => {
  /** The number of histogram bounds ANALYZE kept for column `id` of `table`. */
  async function histogramBounds(table: string): Promise<number> {
    const { rows } = await client.query<{ n: number }>(
      `select cardinality(histogram_bounds::text::int[]) as n from pg_stats
       where tablename = $1 and attname = 'id'`,
      [table],
    )
    return rows[0]?.n ?? 0
  }

  it('samples a table past the large-table size with the smaller statistics target', async () => {
    await client.exec('create table big_matters (id int); create table small_matters (id int)')
    await client.exec('insert into big_matters select g from generate_series(1, 2000) g')
    await client.exec('insert into small_matters select g from generate_series(1, 2000) g')
    await client.query('select pg_stat_force_next_flush()')
    await client.exec('analyze small_matters')
    // the large-table size is lowered to 1,000 rows so the test stays small
    expect(await analyzeChangedTables(client, 1000)).toEqual(['public.big_matters'])
    expect(await histogramBounds('big_matters')).toBe(LARGE_TABLE_STATISTICS_TARGET + 1)
    expect(await histogramBounds('small_matters')).toBe(101)
    const { rows } = await client.query<{ target: string }>(
      "select current_setting('default_statistics_target') as target",
    )
    expect(rows[0]?.target).toBe('100')
  })
})
