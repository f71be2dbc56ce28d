import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { eq, sql } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import type { Database } from './client'
import { analyses, apps, auditLogs, documents } from './schema'
import { PgliteThread } from './pglite-thread'
import { enterTenant, enterTenantStatement, withTenant, withTenantReads } from './tenant'
import { insertOrganisations, openTestDatabase } from '../test/test-database'

/** The database's own message behind Drizzle's "Failed query" wrapper. */
async function dbErrorOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise
  } catch (error) {
    return String((error as { cause?: Error }).cause?.message ?? error)
  }
  return 'no error'
}

describe('enterTenantStatement', () => {
  it('is enterTenant as Drizzle renders it, for an organisation and for one of its apps', () => {
    const dialect = new PgDialect()
    for (const scope of [{ orgId: 'org-x' }, { orgId: 'org-x', appId: 'app-y' }]) {
      const { sql: text, params } = dialect.sqlToQuery(enterTenant(scope))
      expect(enterTenantStatement(scope)).toEqual({ sql: text, params })
    }
    // One text per kind of scope, the same string every time (only the values vary).
    expect(enterTenantStatement({ orgId: 'a' }).sql).toBe(enterTenantStatement({ orgId: 'b' }).sql)
  })
})

describe('row-level security', () => {
  let database: Database
  const orgA = { orgId: 'org-a' }
  const orgB = { orgId: 'org-b' }

  beforeAll(async () => {
    database = await openTestDatabase()
    await insertOrganisations(database, 'org-a', 'org-b')
    await withTenant(database.db, orgB, (tx) =>
      tx.insert(documents).values({ orgId: 'org-b', title: 'B secret', content: 'privileged' }),
    )
  })
  afterAll(() => database.close())

  it('runs tenant work as lexdesk_app with the org set, and only until the transaction ends', async () => {
    const inside = await withTenant(database.db, orgA, async (tx) => {
      const result = await tx.execute(
        sql`select current_user as role, current_setting('app.org_id', true) as org`,
      )
      return (result as unknown as { rows: { role: string; org: string }[] }).rows[0]
    })
    expect(inside).toEqual({ role: 'lexdesk_app', org: orgA.orgId })
    const after = await database.db.execute(
      sql`select current_user as role, current_setting('app.org_id', true) as org`,
    )
    const row = (after as unknown as { rows: { role: string; org: string | null }[] }).rows[0]
    expect(row?.role).not.toBe('lexdesk_app')
    expect(row?.org ?? '').toBe('')
  })

  it('hides org B rows from org A even with a hand-written WHERE org_id = B', async () => {
    const rows = await withTenant(database.db, orgA, (tx) =>
      tx.select().from(documents).where(eq(documents.orgId, 'org-b')),
    )
    expect(rows).toEqual([])
    const raw = await withTenant(database.db, orgA, (tx) =>
      tx.execute(sql`select title from documents where org_id = 'org-b'`),
    )
    expect((raw as { rows: unknown[] }).rows).toEqual([])
  })

  it('confines reads (withTenantReads) to the organisation as withTenant does', async () => {
    const titles = async (orgId: string) => {
      const [rows, total] = await withTenantReads(database.db, { orgId }, (db) => [
        db.select({ title: documents.title }).from(documents).where(eq(documents.orgId, 'org-b')),
        db.$count(documents),
      ])
      return { rows, total }
    }
    expect(await titles('org-a')).toEqual({ rows: [], total: 0 })
    expect(await titles('org-b')).toEqual({ rows: [{ title: 'B secret' }], total: 1 })
    const [role] = await withTenantReads(database.db, orgA, (db) => [
      db.execute(sql`select current_user as role, current_setting('app.org_id', true) as org`),
    ])
    expect((role as unknown as { rows: unknown[] }).rows).toEqual([
      { role: 'lexdesk_app', org: 'org-a' },
    ])
  })

  it('runs withTenantReads settings in the transaction of the reads, and only there', async () => {
    const probe = sql`select current_setting('app.probe', true) as probe`
    const [inside] = await withTenantReads(database.db, orgA, (db) => [db.execute(probe)], {
      settings: [sql`select set_config('app.probe', 'on', true)`],
    })
    expect((inside as unknown as { rows: unknown[] }).rows).toEqual([{ probe: 'on' }])
    const after = await withTenant(database.db, orgA, (tx) => tx.execute(probe))
    expect((after as unknown as { rows: { probe: string | null }[] }).rows[0]?.probe ?? '').toBe('')
  })

  it('reuses plans only when asked, and a reused plan still confines each organisation', async () => {
    const mode = async (reusePlans: boolean) => {
      const [result] = await withTenantReads(
        database.db,
        orgA,
        (db) => [db.execute(sql`show plan_cache_mode`)],
        { reusePlans },
      )
      return (result as unknown as { rows: { plan_cache_mode: string }[] }).rows[0]?.plan_cache_mode
    }
    expect(await mode(true)).toBe('force_generic_plan')
    expect(await mode(false)).toBe('force_custom_plan')
    // One generic plan serves both organisations: the org is read when the plan runs.
    const titles = async (orgId: string) => {
      const [rows] = await withTenantReads(
        database.db,
        { orgId },
        (db) => [db.select({ title: documents.title }).from(documents).limit(10)],
        { reusePlans: true },
      )
      return rows.map((r) => r.title)
    }
    for (let run = 0; run < 3; run++) {
      expect(await titles('org-b')).toEqual(['B secret'])
      expect(await titles('org-a')).toEqual([])
    }
  })

  it('runs the reads in one transaction, in order, and answers each its own result', async () => {
    const batch = vi.spyOn(PgliteThread.prototype, 'batch')
    // The second read sees what the first set for the rest of its transaction.
    const [first, second] = await withTenantReads(database.db, orgA, (db) => [
      db.execute(sql`select set_config('app.step', 'first', true) as step, txid_current() as tx`),
      db.execute(sql`select current_setting('app.step', true) as step, txid_current() as tx`),
    ])
    const [a, b] = [first, second].map(
      (r) => (r as unknown as { rows: { step: string; tx: string }[] }).rows[0],
    )
    expect(a).toEqual(b)
    expect(b?.step).toBe('first')
    // One message to the database thread: the confining statement and both reads.
    expect(batch.mock.calls.map(([statements]) => statements.length)).toEqual([3])
    batch.mockRestore()
  })

  it('confines a read that reaches the handle late (after an await) in a transaction of its own', async () => {
    const late = async (db: typeof database.db) => {
      await new Promise((resolve) => setTimeout(resolve, 5))
      return db.execute(sql`select current_setting('app.org_id', true) as org`)
    }
    const [count, org] = await withTenantReads(database.db, orgB, (db) => [
      db.$count(documents),
      late(db),
    ])
    expect(count).toBe(1)
    expect((org as unknown as { rows: unknown[] }).rows).toEqual([{ org: 'org-b' }])
  })

  it('fails every read of the transaction when one fails, with the error of the database', async () => {
    const reads = withTenantReads(database.db, orgA, (db) => [
      db.$count(documents),
      db.execute(sql`select 1 / 0`),
    ])
    expect(await dbErrorOf(reads)).toMatch(/division by zero/)
  })

  it('applies RLS to a statement text first run outside any tenant (prepared once, re-planned)', async () => {
    const count = sql`select count(*)::int as n from documents`
    const all = await database.db.transaction((tx) => tx.execute(count))
    expect((all as unknown as { rows: { n: number }[] }).rows[0]?.n).toBeGreaterThan(0)
    const fromA = await withTenant(database.db, orgA, (tx) => tx.execute(count))
    expect((fromA as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(0)
  })

  it('still shows org B its own rows', async () => {
    const rows = await withTenant(database.db, orgB, (tx) => tx.select().from(documents))
    expect(rows.map((r) => r.title)).toEqual(['B secret'])
  })

  it('rejects an insert for org B made under org A', async () => {
    const attempts = [
      withTenant(database.db, orgA, (tx) =>
        tx.insert(documents).values({ orgId: 'org-b', title: 'x', content: 'y' }),
      ),
      withTenant(database.db, orgA, (tx) => tx.insert(apps).values({ orgId: 'org-b', slug: 'x' })),
      withTenant(database.db, orgA, (tx) =>
        tx
          .insert(auditLogs)
          .values({ orgId: 'org-b', actorType: 'user', action: 'x', targetType: 'x' }),
      ),
    ]
    for (const attempt of attempts) {
      expect(await dbErrorOf(attempt)).toMatch(/row-level security/)
    }
  })

  it('cannot update or delete org B rows from org A', async () => {
    const updated = await withTenant(database.db, orgA, (tx) =>
      tx.update(documents).set({ title: 'pwned' }).where(eq(documents.orgId, 'org-b')).returning(),
    )
    const deleted = await withTenant(database.db, orgA, (tx) =>
      tx.delete(documents).where(eq(documents.orgId, 'org-b')).returning(),
    )
    expect(updated).toEqual([])
    expect(deleted).toEqual([])
    const still = await withTenant(database.db, orgB, (tx) => tx.select().from(documents))
    expect(still.map((r) => r.title)).toEqual(['B secret'])
  })

  it('keeps the audit trail append-only for the application role', async () => {
    await withTenant(database.db, orgA, (tx) =>
      tx
        .insert(auditLogs)
        .values({ orgId: 'org-a', actorType: 'user', action: 'x', targetType: 'x' }),
    )
    expect(await dbErrorOf(withTenant(database.db, orgA, (tx) => tx.delete(auditLogs)))).toMatch(
      /permission denied/,
    )
    expect(
      await dbErrorOf(
        withTenant(database.db, orgA, (tx) => tx.update(auditLogs).set({ action: 'y' })),
      ),
    ).toMatch(/permission denied/)
  })

  it('sees nothing in a tenant table without an org setting', async () => {
    const rows = await database.db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL ROLE lexdesk_app`)
      return tx.select().from(analyses)
    })
    expect(rows).toEqual([])
    const docs = await database.db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL ROLE lexdesk_app`)
      return tx.select().from(documents)
    })
    expect(docs).toEqual([])
  })
})
