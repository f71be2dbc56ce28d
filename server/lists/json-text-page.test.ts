import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq, like, sql } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import type { Database } from '../db/client'
import { apps, documents } from '../db/schema'
import { newOrganisations, openTestDatabase } from '../test/test-database'
import { jsonTextPage, statementTemplate, utcIso, withApiTimes } from './json-text-page'

const dialect = new PgDialect()

describe('statementTemplate', () => {
  it('renders as the statement built with the values would, placeholders filled in order', () => {
    const build = (type: unknown, limit: unknown) =>
      sql`select ${documents.id} from ${documents} where ${documents.documentType} = ${type}
        and ${documents.title} <> ${'x'} limit ${limit}`
    const fill = statementTemplate(build(sql.placeholder('type'), sql.placeholder('limit')))
    const filled = dialect.sqlToQuery(fill({ type: 'memo', limit: 50 }))
    expect(filled).toEqual(dialect.sqlToQuery(build('memo', 50)))
    expect(filled.params).toEqual(['memo', 'x', 50])
    expect(dialect.sqlToQuery(fill({ type: 'nda', limit: 2 })).params).toEqual(['nda', 'x', 2])
    // Its rendered form is the same text and parameters, without a render per run.
    expect({ sql: fill.text, params: fill.params({ type: 'nda', limit: 2 }) }).toEqual({
      sql: dialect.sqlToQuery(build('nda', 2)).sql,
      params: ['nda', 'x', 2],
    })
  })

  it('refuses a rendered text whose parameters are not numbered in order', () => {
    expect(() => statementTemplate(sql.raw('select $2, $1'))).toThrow(/in order/)
  })
})

describe("utcIso and withApiTimes (a JSON text page's times)", () => {
  it("writes PostgreSQL's JSON timestamps with any number of decimals as Date would", () => {
    for (const [postgres, iso] of [
      ['2026-11-24T13:06:23.123456', '2026-11-24T13:06:23.123Z'],
      ['2026-11-24T13:06:23.1', '2026-11-24T13:06:23.100Z'],
      ['2026-11-24T13:06:23', '2026-11-24T13:06:23.000Z'],
      ['2026-01-02T00:00:00.999999', '2026-01-02T00:00:00.999Z'],
    ]) {
      expect(utcIso(postgres!)).toBe(iso)
      expect(new Date(`${postgres}Z`).toISOString()).toBe(iso)
    }
  })

  it("rewrites only the items' time members of a page, not text that looks like one", () => {
    const title = 'Memo "createdAt":"2020-01-01T00:00:00.5" \\'
    const page = JSON.stringify({
      items: [
        { title, createdAt: '2026-11-24T13:06:23.1', seenAt: null },
        { title: 'B', createdAt: '2026-11-24T13:06:23', seenAt: '2026-11-25T01:02:03.45' },
      ],
    })
    expect(JSON.parse(withApiTimes(page, ['createdAt', 'seenAt']))).toEqual({
      items: [
        { title, createdAt: '2026-11-24T13:06:23.100Z', seenAt: null },
        { title: 'B', createdAt: '2026-11-24T13:06:23.000Z', seenAt: '2026-11-25T01:02:03.450Z' },
      ],
    })
    expect(withApiTimes('{"items" : [], "total" : 0}', ['createdAt'])).toBe(
      '{"items" : [], "total" : 0}',
    )
  })
})

describe('jsonTextPage', () => {
  let database: Database
  let firm: string
  let other: string
  beforeAll(async () => {
    database = await openTestDatabase()
    ;[firm, other] = (await newOrganisations(database, 2)) as [string, string]
    // Times with microseconds, two rows at the same instant (the id breaks the tie).
    const at = (s: string) => sql`${s}::timestamptz`
    await database.db.insert(apps).values([
      { orgId: firm, slug: 'alpha', createdAt: at('2026-11-24 13:06:23.123456+00') as never },
      { orgId: firm, slug: 'beta', createdAt: at('2026-11-24 13:06:23.1+00') as never },
      {
        orgId: firm,
        slug: 'gamma "createdAt":"x',
        createdAt: at('2026-11-25 00:00:00+00') as never,
      },
      { orgId: firm, slug: 'delta', createdAt: at('2026-11-25 00:00:00+00') as never },
      { orgId: other, slug: 'alpha-other' },
    ])
  })
  afterAll(() => database.close())

  const appList = jsonTextPage({
    table: apps,
    fields: { id: apps.id, slug: apps.slug, createdAt: apps.createdAt },
    newestFirst: ['createdAt', 'id'],
    filters: { prefix: (value) => like(apps.slug, value), slug: (value) => eq(apps.slug, value) },
    values: (query: { prefix?: string; slug?: string; limit: number; offset: number }) => ({
      prefix: query.prefix === undefined ? undefined : `${query.prefix}%`,
      slug: query.slug,
    }),
    total: (filter) =>
      filter.prefix !== undefined
        ? 'matches'
        : sql`(select count(*)::int from ${apps} ${filter.slug === undefined ? sql`` : sql`where ${eq(apps.slug, filter.slug)}`})`,
    also: { slugs: sql`(select array_agg(${apps.slug} order by ${apps.slug}) from ${apps})` },
  })

  it("answers the kit's ordinary Drizzle page as JSON text, times in the API's form", async () => {
    const queries = [
      { limit: 50, offset: 0 },
      { limit: 2, offset: 1 },
      { limit: 2, offset: 9 },
      { slug: 'beta', limit: 50, offset: 0 },
      { prefix: 'g', limit: 50, offset: 0 },
      { prefix: '', limit: 2, offset: 3 },
      { prefix: '', limit: 2, offset: 9 },
      { prefix: 'zzz', limit: 5, offset: 0 },
    ]
    for (const query of queries) {
      const fast = await appList.read(database.db, { orgId: firm }, query)
      const ordinary = await appList.readDrizzle(database.db, { orgId: firm }, query)
      expect(JSON.parse(fast), JSON.stringify(query)).toEqual(ordinary)
      expect(JSON.stringify(JSON.parse(fast))).toBe(JSON.stringify(ordinary))
    }
    const all = JSON.parse(await appList.read(database.db, { orgId: firm }, queries[0]!))
    const slugs = all.items.map((item: { slug: string }) => item.slug)
    // Newest first; the two of the same instant in descending id.
    expect(slugs.slice(0, 2).sort()).toEqual(['delta', 'gamma "createdAt":"x'])
    expect(slugs.slice(2)).toEqual(['alpha', 'beta'])
    expect(all.items.find((item: { slug: string }) => item.slug === 'alpha').createdAt).toBe(
      '2026-11-24T13:06:23.123Z',
    )
    expect(all.total).toBe(4)
    expect(all.slugs).toEqual(['alpha', 'beta', 'delta', 'gamma "createdAt":"x'])
  })

  it('refuses an order that names no field', () => {
    const spec = {
      table: apps,
      fields: { id: apps.id, createdAt: apps.createdAt },
      filters: {},
      values: () => ({}),
      total: () => sql`0`,
      also: {},
    }
    expect(() => jsonTextPage({ ...spec, newestFirst: ['slug'] })).toThrow(/names slug/)
  })
})
