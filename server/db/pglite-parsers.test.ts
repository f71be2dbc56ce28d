import { sql } from 'drizzle-orm'
import type { PGlite } from '@electric-sql/pglite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from './client'
import { organization } from './schema'
import { withTenant } from './tenant'
import { insertOrganizations, openTestDatabase } from '../test/test-database'

let database: Database
beforeAll(async () => {
  database = await openTestDatabase()
  await insertOrganizations(database, 'org-p')
})
afterAll(() => database.close())

const VALUES = sql`select '2024-05-06 07:08:09+00'::timestamptz as at, '1 day'::interval as span,
  '2024-01-02'::date as day, array[1.5]::numeric[] as amounts, 42::int4 as n,
  '{"a":1}'::jsonb as doc, array['x','y']::text[] as tags`

const EXPECTED = {
  at: '2024-05-06 07:08:09+00',
  span: '1 day',
  day: '2024-01-02',
  amounts: '{1.5}',
  n: 42,
  doc: { a: 1 },
  tags: ['x', 'y'],
}

describe('PGlite parsers installed once (pglite-parsers.ts)', () => {
  it('gives Drizzle the values it got with per-query parsers, in and out of transactions', async () => {
    const outside = (await database.db.execute(VALUES)) as unknown as { rows: unknown[] }
    expect(outside.rows).toEqual([EXPECTED])
    const inside = await withTenant(database.db, { orgId: 'org-p' }, (tx) => tx.execute(VALUES))
    expect((inside as unknown as { rows: unknown[] }).rows).toEqual([EXPECTED])
  })

  it('still maps timestamp columns to dates through the schema', async () => {
    const [row] = await database.db.select({ createdAt: organization.createdAt }).from(organization)
    expect(row?.createdAt).toBeInstanceOf(Date)
    expect(Number.isNaN(row?.createdAt.getTime())).toBe(false)
  })

  it('honours a query that brings parsers of its own', async () => {
    const client = (database.db as unknown as { $client: PGlite }).$client
    const result = await client.query('select 7::int4 as n', [], {
      parsers: { 23: (value: string) => `int ${value}` },
    })
    expect(result.rows).toEqual([{ n: 'int 7' }])
  })
})
