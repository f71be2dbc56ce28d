/**
 * The `document_counts` trigger (migrations 0007/0008, decision 7) keeps, per organisation, app
 * and document type, the number of documents, in the same transaction as each change; the table
 * is a tenant table under RLS like any other.
 */
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from './client'
import { apps, documentCounts, documents } from './schema'
import { withTenant } from './tenant'
import { newOrganisations, openTestDatabase } from '../test/test-database'

let database: Database

beforeAll(async () => {
  database = await openTestDatabase()
})
afterAll(() => database.close())

/** Org `orgId`'s counters as `app|type → n` (zero counters included), read under its RLS. */
async function countersOf(orgId: string): Promise<Record<string, number>> {
  const rows = await withTenant(database.db, { orgId }, (tx) => tx.select().from(documentCounts))
  return Object.fromEntries(rows.map((r) => [`${r.appId ?? 'org'}|${r.documentType}`, r.documents]))
}

function addDocument(orgId: string, documentType: string, appId: string | null = null) {
  return withTenant(database.db, { orgId }, async (tx) => {
    const [row] = await tx
      .insert(documents)
      .values({ orgId, appId, title: 't', content: 'c', documentType })
      .returning({ id: documents.id })
    return row!.id
  })
}

describe('document counters', () => {
  it('count inserts, deletes and changes of type or app, per organisation', async () => {
    const [a, b] = (await newOrganisations(database, 2)) as [string, string]
    const [app] = await withTenant(database.db, { orgId: a }, (tx) =>
      tx.insert(apps).values({ orgId: a, slug: 'tax' }).returning(),
    )
    const nda = await addDocument(a, 'nda')
    await addDocument(a, 'nda')
    const lease = await addDocument(a, 'lease', app!.id)
    await addDocument(b, 'nda')
    expect(await countersOf(a)).toEqual({ 'org|nda': 2, [`${app!.id}|lease`]: 1 })

    await withTenant(database.db, { orgId: a }, async (tx) => {
      await tx.update(documents).set({ documentType: 'memo' }).where(eq(documents.id, nda))
      await tx.delete(documents).where(eq(documents.id, lease))
    })
    expect(await countersOf(a)).toEqual({
      'org|nda': 1,
      'org|memo': 1,
      [`${app!.id}|lease`]: 0,
    })
    expect(await countersOf(b)).toEqual({ 'org|nda': 1 })
  })

  it("moves an app's documents back to the organisation's counters when the app is deleted", async () => {
    const [, b] = (await newOrganisations(database, 2)) as [string, string]
    const [app] = await withTenant(database.db, { orgId: b }, (tx) =>
      tx.insert(apps).values({ orgId: b, slug: 'litigation' }).returning(),
    )
    await addDocument(b, 'brief', app!.id)
    await withTenant(database.db, { orgId: b }, (tx) => tx.delete(apps).where(eq(apps.id, app!.id)))
    const counters = await countersOf(b)
    expect(counters['org|brief']).toBe(1)
    expect(counters[`${app!.id}|brief`]).toBe(0)
  })

  it("hides and protects another organisation's counters", async () => {
    const [a, b] = (await newOrganisations(database, 2)) as [string, string]
    await addDocument(b, 'nda')
    const seen = await withTenant(database.db, { orgId: a }, (tx) =>
      tx.execute(sql`select * from document_counts where org_id = ${b}`),
    )
    expect((seen as unknown as { rows: unknown[] }).rows).toEqual([])
    await expect(
      withTenant(database.db, { orgId: a }, (tx) =>
        tx.insert(documentCounts).values({ orgId: b, documentType: 'nda', documents: 99 }),
      ),
    ).rejects.toThrow()
    const changed = await withTenant(database.db, { orgId: a }, (tx) =>
      tx.update(documentCounts).set({ documents: 99 }).where(eq(documentCounts.orgId, b)),
    )
    expect((changed as unknown as { affectedRows?: number }).affectedRows ?? 0).toBe(0)
    expect((await countersOf(b))['org|nda']).toBe(1)
  })
})
