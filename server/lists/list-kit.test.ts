import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asc, desc, like, sql } from 'drizzle-orm'
import type { Database } from '../db/client'
import { decodeCursor, encodeCursor, keysetPage, readListPage, readPage } from './list-kit'
import { apps } from '../db/schema'
import { newOrganisations, openTestDatabase } from '../test/test-database'

let database: Database
let firm: string
let other: string
beforeAll(async () => {
  database = await openTestDatabase()
  ;[firm, other] = (await newOrganisations(database, 2)) as [string, string]
  const slugs = ['alpha', 'beta', 'gamma', 'delta', 'epsilon']
  await database.db.insert(apps).values(slugs.map((slug) => ({ orgId: firm, slug })))
  await database.db.insert(apps).values({ orgId: other, slug: 'other-firm-app' })
})
afterAll(() => database.close())

describe('readPage', () => {
  it('reads a window in order and the number of rows matching, of the organisation only', async () => {
    const page = (query: Partial<Parameters<typeof readPage>[3]>) =>
      readPage(database.db, { orgId: firm }, apps, {
        orderBy: [asc(apps.slug)],
        limit: 2,
        offset: 0,
        ...query,
      }).then(({ rows, total }) => ({ slugs: rows.map((r) => r.slug), total }))
    expect(await page({})).toEqual({ slugs: ['alpha', 'beta'], total: 5 })
    expect(await page({ offset: 4 })).toEqual({ slugs: ['gamma'], total: 5 })
    expect(await page({ offset: 9 })).toEqual({ slugs: [], total: 5 })
    expect(await page({ orderBy: [desc(apps.slug)] })).toEqual({
      slugs: ['gamma', 'epsilon'],
      total: 5,
    })
    expect(await page({ where: like(apps.slug, '%ta') })).toEqual({
      slugs: ['beta', 'delta'],
      total: 2,
    })
    const theirs = await readPage(database.db, { orgId: other }, apps, {
      orderBy: [asc(apps.slug)],
      limit: 50,
      offset: 0,
    })
    expect(theirs.rows.map((r) => r.slug)).toEqual(['other-firm-app'])
    expect(theirs.total).toBe(1)
  })
})

describe('readListPage', () => {
  it("reads chosen columns, the list's own count and its list-wide facts together, of the organisation only", async () => {
    const { rows, total, also } = await readListPage(
      database.db,
      { orgId: firm },
      { limit: 2, offset: 1 },
      (tx) => ({
        rows: tx.select({ slug: apps.slug }).from(apps).orderBy(desc(apps.slug)),
        // A count the list knows otherwise (a counter's sum, say): here a constant.
        total: Promise.resolve(42),
        also: [tx.select({ n: sql<number>`count(*)::int` }).from(apps)],
      }),
    )
    expect(rows).toEqual([{ slug: 'epsilon' }, { slug: 'delta' }])
    expect(total).toBe(42)
    expect(also[0]).toEqual([{ n: 5 }])
  })
})

describe('keyset pages', () => {
  it('gives the next cursor only when a row past the page was read', () => {
    const rows = [{ name: 'a' }, { name: 'b' }, { name: 'c' }]
    expect(keysetPage(rows, 2, (last) => last.name)).toEqual({
      items: [{ name: 'a' }, { name: 'b' }],
      nextCursor: 'b',
    })
    expect(keysetPage(rows, 3, (last) => last.name)).toEqual({ items: rows, nextCursor: null })
    expect(keysetPage([], 3, () => 'never')).toEqual({ items: [], nextCursor: null })
  })

  it('reads back the key of a cursor it gave and refuses one it did not (400 bad_request)', () => {
    const key = ['2026-12-07T08:00:00.000Z', 'f6c1b1d2-0c55-4f8e-9f8e-0d6f2b6b7c1a']
    expect(decodeCursor(encodeCursor(key), 2)).toEqual(key)
    for (const foreign of [
      'not-base64-json',
      encodeCursor(['only one']),
      encodeCursor([1, 2] as never),
    ]) {
      expect(() => decodeCursor(foreign, 2)).toThrow(
        expect.objectContaining({ code: 'bad_request' }),
      )
    }
  })
})
