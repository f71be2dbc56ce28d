/**
 * The `entity_counts` statement triggers (migration 0021, decision 0029) keep, per organisation,
 * app and type, the number of entities, in the same transaction as each insert, delete and update;
 * the table is a tenant table under RLS like any other, as is entity_imports (decision 0035).
 */
import { eq, inArray, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from './client'
import { apps, entities, entityCounts, entityImports } from './schema'
import { withTenant } from './tenant'
import { newOrganisations, openTestDatabase } from '../test/test-database'

let database: Database

beforeAll(async () => {
  database = await openTestDatabase()
})
afterAll(() => database.close())

/** Org `orgId`'s counters as `app|type → n` (zero counters included), read under its RLS. */
async function countersOf(orgId: string): Promise<Record<string, number>> {
  const rows = await withTenant(database.db, { orgId }, (tx) => tx.select().from(entityCounts))
  return Object.fromEntries(rows.map((r) => [`${r.appId ?? 'org'}|${r.type}`, r.entities]))
}

/** Inserts `types.length` entities in one statement; returns their ids. */
function addEntities(orgId: string, types: string[], appId: string | null = null) {
  return withTenant(database.db, { orgId }, async (tx) => {
    const rows = await tx
      .insert(entities)
      .values(types.map((type, i) => ({ orgId, appId, type, name: `e${i}` })))
      .returning({ id: entities.id })
    return rows.map((r) => r.id)
  })
}

describe('entity counters', () => {
  it('count multi-row inserts, deletes and changes of type, per organisation', async () => {
    const [a, b] = (await newOrganisations(database, 2)) as [string, string]
    const [app] = await withTenant(database.db, { orgId: a }, (tx) =>
      tx.insert(apps).values({ orgId: a, slug: 'crm' }).returning(),
    )
    const [client, , lead] = await addEntities(a, ['client', 'client', 'lead'])
    await addEntities(a, ['lead', 'lead'], app!.id)
    await addEntities(b, ['client'])
    expect(await countersOf(a)).toEqual({
      'org|client': 2,
      'org|lead': 1,
      [`${app!.id}|lead`]: 2,
    })

    await withTenant(database.db, { orgId: a }, async (tx) => {
      await tx.update(entities).set({ type: 'lead' }).where(eq(entities.id, client!))
      // An edit that changes no group leaves the counters as they are.
      await tx.update(entities).set({ name: 'renamed', data: { a: 1 } })
      await tx.delete(entities).where(inArray(entities.id, [lead!]))
    })
    expect(await countersOf(a)).toEqual({
      'org|client': 1,
      'org|lead': 1,
      [`${app!.id}|lead`]: 2,
    })
    expect(await countersOf(b)).toEqual({ 'org|client': 1 })
  })

  it("moves an app's entities back to the organisation's counters when the app is deleted", async () => {
    const [, b] = (await newOrganisations(database, 2)) as [string, string]
    const [app] = await withTenant(database.db, { orgId: b }, (tx) =>
      tx.insert(apps).values({ orgId: b, slug: 'intake' }).returning(),
    )
    await addEntities(b, ['matter', 'matter'], app!.id)
    await withTenant(database.db, { orgId: b }, (tx) => tx.delete(apps).where(eq(apps.id, app!.id)))
    const counters = await countersOf(b)
    expect(counters['org|matter']).toBe(2)
    expect(counters[`${app!.id}|matter`]).toBe(0)
  })

  it("hides and protects another organisation's counters", async () => {
    const [a, b] = (await newOrganisations(database, 2)) as [string, string]
    await addEntities(b, ['client'])
    const seen = await withTenant(database.db, { orgId: a }, (tx) =>
      tx.execute(sql`select * from entity_counts where org_id = ${b}`),
    )
    expect((seen as unknown as { rows: unknown[] }).rows).toEqual([])
    await expect(
      withTenant(database.db, { orgId: a }, (tx) =>
        tx.insert(entityCounts).values({ orgId: b, type: 'client', entities: 99 }),
      ),
    ).rejects.toThrow()
    const changed = await withTenant(database.db, { orgId: a }, (tx) =>
      tx.update(entityCounts).set({ entities: 99 }).where(eq(entityCounts.orgId, b)),
    )
    expect((changed as unknown as { affectedRows?: number }).affectedRows ?? 0).toBe(0)
    expect((await countersOf(b))['org|client']).toBe(1)
  })

  it('skip rows an import is staging, on insert and on their sweep (decision 0035)', async () => {
    const [a] = (await newOrganisations(database, 1)) as [string]
    const jobId = crypto.randomUUID()
    await withTenant(database.db, { orgId: a }, async (tx) => {
      await tx.insert(entityImports).values({ jobId, orgId: a })
      await tx.insert(entities).values([
        { orgId: a, type: 'client', name: 'staged 1', importJobId: jobId },
        { orgId: a, type: 'client', name: 'staged 2', importJobId: jobId },
      ])
    })
    await addEntities(a, ['client'])
    expect(await countersOf(a)).toEqual({ 'org|client': 1 })
    await withTenant(database.db, { orgId: a }, async (tx) => {
      await tx.delete(entities).where(eq(entities.importJobId, jobId))
      await tx.delete(entityImports).where(eq(entityImports.jobId, jobId))
    })
    expect(await countersOf(a)).toEqual({ 'org|client': 1 })
  })

  it("hides and protects another organisation's import staging marks", async () => {
    const [a, b] = (await newOrganisations(database, 2)) as [string, string]
    const jobId = crypto.randomUUID()
    await withTenant(database.db, { orgId: b }, (tx) =>
      tx.insert(entityImports).values({ jobId, orgId: b }),
    )
    const seen = await withTenant(database.db, { orgId: a }, (tx) =>
      tx.select().from(entityImports),
    )
    expect(seen).toEqual([])
    await expect(
      withTenant(database.db, { orgId: a }, (tx) =>
        tx.insert(entityImports).values({ jobId: crypto.randomUUID(), orgId: b }),
      ),
    ).rejects.toThrow()
    const gone = await withTenant(database.db, { orgId: a }, (tx) =>
      tx.delete(entityImports).where(eq(entityImports.jobId, jobId)).returning(),
    )
    expect(gone).toEqual([])
    const kept = await withTenant(database.db, { orgId: b }, (tx) =>
      tx.select().from(entityImports),
    )
    expect(kept.map((k) => k.jobId)).toEqual([jobId])
  })
})
