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
import { insertOrganizations, openTestDatabase } from '../test/test-database'

let database: Database
const orgA = { orgId: 'org-a' }
const orgB = { orgId: 'org-b' }

beforeAll(async () => {
  database = await openTestDatabase()
  await insertOrganizations(database, 'org-a', 'org-b')
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
    const [app] = await withTenant(database.db, orgA, (tx) =>
      tx.insert(apps).values({ orgId: 'org-a', slug: 'tax' }).returning(),
    )
    const nda = await addDocument('org-a', 'nda')
    await addDocument('org-a', 'nda')
    const lease = await addDocument('org-a', 'lease', app!.id)
    await addDocument('org-b', 'nda')
    expect(await countersOf('org-a')).toEqual({ 'org|nda': 2, [`${app!.id}|lease`]: 1 })

    await withTenant(database.db, orgA, async (tx) => {
      await tx.update(documents).set({ documentType: 'memo' }).where(eq(documents.id, nda))
      await tx.delete(documents).where(eq(documents.id, lease))
    })
    expect(await countersOf('org-a')).toEqual({
      'org|nda': 1,
      'org|memo': 1,
      [`${app!.id}|lease`]: 0,
    })
    expect(await countersOf('org-b')).toEqual({ 'org|nda': 1 })
  })

  it("moves an app's documents back to the organisation's counters when the app is deleted", async () => {
    const [app] = await withTenant(database.db, orgB, (tx) =>
      tx.insert(apps).values({ orgId: 'org-b', slug: 'litigation' }).returning(),
    )
    await addDocument('org-b', 'brief', app!.id)
    await withTenant(database.db, orgB, (tx) => tx.delete(apps).where(eq(apps.id, app!.id)))
    const counters = await countersOf('org-b')
    expect(counters['org|brief']).toBe(1)
    expect(counters[`${app!.id}|brief`]).toBe(0)
  })

  it("hides and protects another organisation's counters", async () => {
    const seen = await withTenant(database.db, orgA, (tx) =>
      tx.execute(sql`select * from document_counts where org_id = 'org-b'`),
    )
    expect((seen as unknown as { rows: unknown[] }).rows).toEqual([])
    await expect(
      withTenant(database.db, orgA, (tx) =>
        tx.insert(documentCounts).values({ orgId: 'org-b', documentType: 'nda', documents: 99 }),
      ),
    ).rejects.toThrow()
    const changed = await withTenant(database.db, orgA, (tx) =>
      tx.update(documentCounts).set({ documents: 99 }).where(eq(documentCounts.orgId, 'org-b')),
    )
    expect((changed as unknown as { affectedRows?: number }).affectedRows ?? 0).toBe(0)
    expect((await countersOf('org-b'))['org|nda']).toBe(1)
  })
})
