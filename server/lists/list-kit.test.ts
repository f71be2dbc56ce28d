import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asc, desc, like } from 'drizzle-orm'
import type { Database } from '../db/client'
import { readPage } from './list-kit'
import { apps } from '../db/schema'
import { newOrganizations, openTestDatabase } from '../test/test-database'

let database: Database
let firm: string
let other: string
beforeAll(async () => {
  database = await openTestDatabase()
  ;[firm, other] = (await newOrganizations(database, 2)) as [string, string]
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
