import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { z } from 'zod'
import type { Database } from '../../db/client'
import { apps, documents } from '../../db/schema'
import { newOrganisations, openTestDatabase } from '../../test/test-database'
import { documentList, type DocumentListFilter } from './service'
import { DocumentPage } from './schemas'

let database: Database
let firm: string
let appId: string
/** The documents' ids by title (the other firm's too). */
const idOf: Record<string, string> = {}

beforeAll(async () => {
  database = await openTestDatabase()
  const [org, other] = (await newOrganisations(database, 2)) as [string, string]
  firm = org
  const [app] = await database.db.insert(apps).values({ orgId: firm, slug: 'deal' }).returning()
  appId = app!.id
  const at = (s: string) => sql`${s}::timestamptz` as never
  // Titles and contents that JSON must escape, times with 0–6 decimals, two at one instant.
  await database.db.insert(documents).values([
    {
      orgId: firm,
      title: 'Lease "createdAt":"2020-01-01" \\ end',
      content: 'Rent is due monthly.',
      documentType: 'lease',
      createdAt: at('2026-11-24 13:06:23.123456+00'),
    },
    {
      orgId: firm,
      title: 'NDA\tmutual',
      content: 'Confidential information… « » \u2028',
      documentType: 'nda',
      createdAt: at('2026-11-24 13:06:23.1+00'),
    },
    {
      orgId: firm,
      title: 'Share purchase',
      content: 'The buyer pays 100% on closing_date.',
      documentType: 'contract',
      appId,
      createdAt: at('2026-11-25 00:00:00+00'),
    },
    {
      orgId: firm,
      title: 'Side letter',
      content: 'x'.repeat(400),
      documentType: 'contract',
      appId,
      createdAt: at('2026-11-25 00:00:00+00'),
      textStatus: 'empty',
    },
    {
      orgId: firm,
      title: 'Scan',
      content: 'Recognised text',
      documentType: 'memo',
      createdAt: at('2026-11-26 08:00:00.999999+00'),
      textStatus: 'ocr',
    },
    { orgId: other, title: "Another firm's lease", content: 'Rent.', documentType: 'lease' },
  ])
  const written = await database.db
    .select({ id: documents.id, title: documents.title })
    .from(documents)
  for (const { id, title } of written) idOf[title] = id
})
afterAll(() => database.close())

describe('the document list on the fast path', () => {
  it("answers the same JSON as the kit's ordinary Drizzle page through the route's schema", async () => {
    const queries: DocumentListFilter[] = [
      { limit: 50, offset: 0 },
      { limit: 2, offset: 1 },
      { limit: 2, offset: 50 },
      { type: 'contract', limit: 50, offset: 0 },
      { type: 'all', limit: 50, offset: 0 },
      { type: 'none', limit: 50, offset: 0 },
      { appId, limit: 50, offset: 0 },
      { appId, type: 'contract', limit: 1, offset: 1 },
      { q: 'rent', limit: 50, offset: 0 },
      { q: '100%', limit: 50, offset: 0 },
      { q: 'closing_date', type: 'contract', appId, limit: 50, offset: 0 },
      { q: 'e', limit: 1, offset: 2 },
      { q: 'e', limit: 1, offset: 50 },
      { q: 'nothing like it', limit: 50, offset: 0 },
      { ids: [idOf['Scan']!, idOf['Side letter']!], limit: 50, offset: 0 },
      { ids: [idOf['Scan']!, idOf['Side letter']!], limit: 1, offset: 1 },
      { ids: [idOf['Scan']!], limit: 1, offset: 5 },
      { ids: [idOf['Scan']!, idOf['Side letter']!], appId, limit: 50, offset: 0 },
      { ids: [idOf["Another firm's lease"]!], limit: 50, offset: 0 },
    ]
    const principal = { orgId: firm }
    for (const query of queries) {
      const fast = await documentList.read(database.db, principal, query)
      const ordinary = await documentList.readDrizzle(database.db, principal, query)
      // What Fastify's serializer would write for the ordinary page (fastify-type-provider-zod:
      // the schema's encoding, then JSON.stringify), field for field and in the same order.
      const serialized = JSON.stringify(z.encode(DocumentPage, ordinary as never))
      expect(JSON.stringify(JSON.parse(fast)), JSON.stringify(query)).toBe(serialized)
    }
  })

  it('reads only the organisation, newest first, with its types and counted total', async () => {
    const page = JSON.parse(
      await documentList.read(database.db, { orgId: firm }, { limit: 50, offset: 0 }),
    )
    expect(page.total).toBe(5)
    expect(page.types).toEqual(['contract', 'lease', 'memo', 'nda'])
    expect(page.items[0]).toMatchObject({ title: 'Scan', createdAt: '2026-11-26T08:00:00.999Z' })
    expect(page.items.at(-1)).toMatchObject({
      title: 'NDA\tmutual',
      createdAt: '2026-11-24T13:06:23.100Z',
    })
  })

  it('reads the documents named by id, newest first, counting those it reaches only', async () => {
    const read = async (ids: string[], appFilter?: string) =>
      JSON.parse(
        await documentList.read(
          database.db,
          { orgId: firm },
          { ids, appId: appFilter, limit: 50, offset: 0 },
        ),
      ) as { items: { title: string }[]; total: number }
    const named = await read([idOf['NDA\tmutual']!, idOf['Scan']!, idOf["Another firm's lease"]!])
    expect(named.items.map((d) => d.title)).toEqual(['Scan', 'NDA\tmutual'])
    expect(named.total).toBe(2)
    expect(await read([idOf["Another firm's lease"]!])).toMatchObject({ items: [], total: 0 })
    const inApp = await read([idOf['Scan']!, idOf['Side letter']!], appId)
    expect(inApp.items.map((d) => d.title)).toEqual(['Side letter'])
  })
})
