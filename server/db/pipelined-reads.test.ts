/**
 * withTenantReads on PostgreSQL (pipelined-reads.ts): one write and one round trip for the whole
 * read transaction, with the confinement of withTenant. PostgreSQL only (TEST_DATABASE_URL, as
 * `npm run test:server` sets it); on PGlite the reads take the database thread's batch
 * (tenant.test.ts).
 */
import { Socket } from 'node:net'
import { sql } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Database } from './client'
import { documents } from './schema'
import { readRendered, withTenant, withTenantReads } from './tenant'
import { insertOrganisations, openTestDatabases } from '../test/test-database'

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows

/** The database's own message behind Drizzle's "Failed query" wrapper. */
async function dbErrorOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise
  } catch (error) {
    return String((error as { cause?: Error }).cause?.message ?? (error as Error).message)
  }
  return 'no error'
}

const probe = sql`select current_user as role, current_setting('app.org_id', true) as org,
  txid_current()::text as tx`

describe.skipIf(!process.env.TEST_DATABASE_URL)('tenant reads on PostgreSQL', () => {
  let database: Database
  let app: Database
  const orgA = { orgId: 'pipe-a' }
  const orgB = { orgId: 'pipe-b' }

  beforeAll(async () => {
    ;({ database, app } = await openTestDatabases())
    await insertOrganisations(database, orgA.orgId, orgB.orgId)
    await withTenant(app.db, orgB, (tx) =>
      tx.insert(documents).values({ orgId: orgB.orgId, title: 'B secret', content: 'privileged' }),
    )
  })
  afterAll(() => database.close())

  it('writes the transaction, its confinement and every read to the socket at once', async () => {
    await withTenantReads(app.db, orgA, (db) => [db.execute(probe)]) // a connection is open
    const writes = vi.spyOn(Socket.prototype, '_writev')
    const write = vi.spyOn(Socket.prototype, '_write')
    try {
      const [first, second] = await withTenantReads(app.db, orgA, (db) => [
        db.execute(probe),
        db.$count(documents),
      ])
      expect(rowsOf(first)).toHaveLength(1)
      expect(second).toBe(0)
      expect(writes.mock.calls.length + write.mock.calls.length).toBe(1)
    } finally {
      writes.mockRestore()
      write.mockRestore()
    }
  })

  it('runs the reads in one transaction, confined to the organisation, and only there', async () => {
    const [first, second] = await withTenantReads(app.db, orgA, (db) => [
      db.execute(probe),
      db.execute(probe),
    ])
    const [a, b] = [first, second].map((r) => rowsOf<{ role: string; org: string; tx: string }>(r))
    expect(a).toEqual(b)
    expect(a?.[0]).toMatchObject({ role: 'lexdesk_app', org: orgA.orgId })
    const titles = async (orgId: string) => {
      const [rows] = await withTenantReads(app.db, { orgId }, (db) => [
        db.select({ title: documents.title }).from(documents),
      ])
      return rows.map((r) => r.title)
    }
    expect(await titles(orgA.orgId)).toEqual([])
    expect(await titles(orgB.orgId)).toEqual(['B secret'])
    // The pool's connections are back outside any tenant.
    for (let i = 0; i < 3; i++) {
      const after = rowsOf<{ role: string; org: string | null }>(await app.db.execute(probe))[0]
      expect(after?.role).not.toBe('lexdesk_app')
      expect(after?.org ?? '').toBe('')
    }
  })

  it('refuses every read when the confinement fails, and reports that failure', async () => {
    const reads = withTenantReads(
      app.db,
      orgB,
      (db) => [db.select({ title: documents.title }).from(documents)],
      { settings: [sql`select 1 / 0`] },
    )
    expect(await dbErrorOf(reads)).toMatch(/division by zero/)
    // The connection came back usable, not inside the failed transaction.
    const [rows] = await withTenantReads(app.db, orgB, (db) => [
      db.select({ title: documents.title }).from(documents),
    ])
    expect(rows.map((r) => r.title)).toEqual(['B secret'])
  })

  it('fails the reads when one fails, with the error of the database', async () => {
    const reads = withTenantReads(app.db, orgA, (db) => [
      db.$count(documents),
      db.execute(sql`select 1 / 0`),
    ])
    expect(await dbErrorOf(reads)).toMatch(/division by zero/)
  })

  it('answers once COMMIT is answered and the connection is back in the pool', async () => {
    const pool = (app.db as unknown as { $client: pg.Pool }).$client
    for (let i = 0; i < 3; i++) {
      const [count] = await withTenantReads(app.db, orgB, (db) => [db.$count(documents)])
      expect(count).toBe(1)
      expect(pool.totalCount - pool.idleCount).toBe(0)
    }
  })

  it('answers a read sent past Drizzle (readRendered) as db.execute answers it, in the tenant', async () => {
    const statement = sql`select ${7}::int as n, ${'x'}::text as t, current_setting('app.org_id') as org,
      timestamptz '2026-01-02 03:04:05.678+00' as at, date '2026-01-02' as day,
      interval '1 day' as span, array[1.5]::numeric[] as amounts`
    const rendered = new PgDialect().sqlToQuery(statement)
    const [direct, drizzled] = await withTenantReads(app.db, orgB, (db) => [
      readRendered(db, rendered, () => statement),
      db.execute(statement),
    ])
    expect(rowsOf(direct)).toEqual(rowsOf(drizzled))
    expect(rowsOf(direct)[0]).toMatchObject({ n: 7, t: 'x', org: orgB.orgId, day: '2026-01-02' })
  })

  it('confines a read that reaches the handle late (after an await) in a transaction of its own', async () => {
    const late = async (db: Database['db']) => {
      await new Promise((resolve) => setTimeout(resolve, 5))
      return db.execute(probe)
    }
    const [count, row] = await withTenantReads(app.db, orgB, (db) => [
      db.$count(documents),
      late(db),
    ])
    expect(count).toBe(1)
    expect(rowsOf(row)[0]).toMatchObject({ role: 'lexdesk_app', org: orgB.orgId })
  })

  it('sends the reads of a transaction that reuses plans as statements prepared on the connection', async () => {
    // The view lists the statements prepared in this session, the running one too once parsed.
    const prepared = sql`select statement from pg_prepared_statements
      where statement like '%pg_prepared_statements%' and current_setting('app.org_id') = ${orgB.orgId}`
    const statements = async (reusePlans: boolean) => {
      const [first, second] = await withTenantReads(
        app.db,
        orgB,
        (db) => [db.execute(prepared), db.execute(prepared)],
        { reusePlans },
      )
      expect(rowsOf(second)).toEqual(rowsOf(first))
      return rowsOf<{ statement: string }>(first).map((r) => r.statement)
    }
    expect(await statements(false)).toEqual([])
    // The same text twice in one pipeline: prepared once, run twice; and again in a later one.
    for (let i = 0; i < 3; i++) {
      expect(await statements(true)).toEqual([
        expect.stringContaining('from pg_prepared_statements'),
      ])
    }
    const [count] = await withTenantReads(app.db, orgB, (db) => [db.$count(documents)], {
      reusePlans: true,
    })
    expect(count).toBe(1)
  })

  it('drops a connection whose prepared read no longer fits the table, so the next read runs', async () => {
    // A migration run by another instance (a rolling upgrade) changes a column's type: PostgreSQL
    // refuses the prepared statement from then on, on every connection that prepared it.
    await database.db.execute(sql`create table plan_probe (id int)`)
    await database.db.execute(sql`insert into plan_probe values (7)`)
    await database.db.execute(sql`grant select on plan_probe to lexdesk_app`)
    try {
      const ids = async () => {
        const [result] = await withTenantReads(
          app.db,
          orgA,
          (db) => [db.execute(sql`select id from plan_probe`)],
          { reusePlans: true },
        )
        return rowsOf<{ id: unknown }>(result).map((r) => String(r.id))
      }
      expect(await ids()).toEqual(['7']) // prepared on the pool's last idle connection
      await database.db.execute(sql`alter table plan_probe alter column id type bigint`)
      expect(await dbErrorOf(ids())).toMatch(/cached plan must not change result type/)
      // That connection was not given back to the pool: the same read runs on another.
      expect(await ids()).toEqual(['7'])
    } finally {
      await database.db.execute(sql`drop table plan_probe`)
    }
  })
})
