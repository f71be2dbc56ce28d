import { sql } from 'drizzle-orm'
import { readFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest'
import type { Database } from './client'
import type { Worker } from 'node:worker_threads'
import { PgliteThread } from './pglite-thread'
import { organization } from './schema'
import { withTenant } from './tenant'
import { insertOrganisations, openTestDatabase } from '../test/test-database'

let database: Database
let client: PgliteThread
beforeAll(async () => {
  database = await openTestDatabase()
  client = (database.db as unknown as { $client: PgliteThread }).$client
  await insertOrganisations(database, 'org-p')
  await client.exec(`create table thread_t (id int primary key,
    parent int references thread_t (id) deferrable initially deferred)`)
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

describe('PGlite on its own thread (pglite-thread.ts)', () => {
  it('gives Drizzle the values its own parsers would, in and out of transactions', async () => {
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

  it('refuses a query whose parsers cannot cross to the thread', async () => {
    expect(() =>
      client.query('select 7::int4 as n', [], { parsers: { 23: (v: string) => `int ${v}` } }),
    ).toThrow(/type 23 cannot be sent/)
  })

  it("keeps PostgreSQL's error fields across the thread", async () => {
    const error = await client
      .query(`insert into organization (id, name, slug) values ('org-p', 'x', 'y')`)
      .catch((e: unknown) => e)
    expect(error).toMatchObject({ code: '23505', constraint: 'organization_pkey' })
    expect((error as Error).message).toMatch(/duplicate key/)
  })

  it('rolls back when the callback throws, and commits when it resolves', async () => {
    await expect(
      client.transaction(async (tx) => {
        await tx.query('insert into thread_t (id) values (1)')
        throw new Error('stop')
      }),
    ).rejects.toThrow('stop')
    await client.transaction((tx) => tx.query('insert into thread_t (id) values (2)'))
    const { rows } = await client.query<{ id: number }>('select id from thread_t order by id')
    expect(rows).toEqual([{ id: 2 }])
  })

  it("rejects with COMMIT's own error (a deferred constraint) and keeps nothing", async () => {
    const error = await client
      .transaction((tx) => tx.query('insert into thread_t (id, parent) values (3, 99)'))
      .catch((e: unknown) => e)
    expect(error).toMatchObject({ code: '23503' })
    const { rows } = await client.query('select id from thread_t where id = 3')
    expect(rows).toEqual([])
  })

  it('refuses the statements sent after a failed one in the same transaction', async () => {
    // withTenant sends its set_config without waiting on this guarantee (tenant.ts).
    const outcomes = await client
      .transaction(async (tx) => {
        const failed = tx.query('select 1 / 0')
        const after = tx.query('select current_user')
        return Promise.allSettled([failed, after])
      })
      .catch((e: unknown) => e)
    const [failed, after] = outcomes as PromiseSettledResult<unknown>[]
    expect(failed).toMatchObject({ status: 'rejected', reason: { code: '22012' } })
    expect(after).toMatchObject({ status: 'rejected', reason: { code: '25P02' } })
  })

  it('keeps concurrent transactions apart, each with its own settings', async () => {
    const read = (orgId: string) =>
      withTenant(database.db, { orgId }, async (tx) => {
        const result = await tx.execute(sql`select current_setting('app.org_id') as org`)
        return (result as unknown as { rows: { org: string }[] }).rows[0]?.org
      })
    const orgs = Array.from({ length: 20 }, (_, i) => `org-${i}`)
    expect(await Promise.all(orgs.map(read))).toEqual(orgs)
  })

  it('binds values of every kind as PGlite does inside transactions (prepared statements)', async () => {
    const values = [
      null,
      42,
      "text with 'quote'",
      true,
      { a: [1, 'x'] },
      new Date(Date.UTC(2024, 0, 2)),
    ]
    const { rows } = await client.transaction((tx) =>
      tx.query<Record<string, unknown>>(
        `select $1::text as none, $2::int as n, $3::text as s, $4::bool as b, $5::jsonb as j,
           $6::timestamptz as at`,
        values,
      ),
    )
    expect(rows).toEqual([
      {
        none: null,
        n: 42,
        s: "text with 'quote'",
        b: true,
        j: { a: [1, 'x'] },
        at: '2024-01-02 00:00:00+00',
      },
    ])
  })

  it('plans each run of a prepared statement for its own values', async () => {
    const { rows } = await client.transaction((tx) => tx.query('show plan_cache_mode'))
    expect(rows).toEqual([{ plan_cache_mode: 'force_custom_plan' }])
  })

  it('parses a statement again after a table change made its cached plan invalid', async () => {
    await client.exec('create table thread_shape (id int); insert into thread_shape values (2)')
    const read = () => client.transaction((tx) => tx.query('select * from thread_shape'))
    expect((await read()).rows).toEqual([{ id: 2 }])
    await client.exec('alter table thread_shape add column note text')
    // PostgreSQL refuses a cached statement whose result shape changed; the next run re-parses.
    await expect(read()).rejects.toThrow(/cached plan must not change result type/)
    expect((await read()).rows).toEqual([{ id: 2, note: null }])
  })

  it('runs a batch in one transaction of its own, each statement answering in its row mode', async () => {
    const [set, read, rows] = await client.batch([
      { sql: `select set_config('app.step', $1, true) as step`, params: ['one'] },
      { sql: `select current_setting('app.step', true) as step` },
      {
        sql: 'select n, n * 2 as twice from generate_series(1, 2) n',
        options: { rowMode: 'array' },
      },
    ])
    expect(set?.rows).toEqual([{ step: 'one' }])
    expect(read?.rows).toEqual([{ step: 'one' }])
    expect(rows?.rows).toEqual([
      [1, 2],
      [2, 4],
    ])
    // An empty statement answers no rows, and the next ones still answer their own results.
    const [one, empty, two] = await client.batch([
      { sql: 'select 1 as one' },
      { sql: '' },
      { sql: 'select 2 as two' },
    ])
    expect([one?.rows, empty?.rows, two?.rows]).toEqual([[{ one: 1 }], [], [{ two: 2 }]])
    // The setting ended with the batch's transaction.
    const after = await client.query(`select current_setting('app.step', true) as step`)
    expect(after.rows).toEqual([{ step: '' }])
  })

  it("rolls a failed batch back whole, with the failing statement's error, and stays usable", async () => {
    const error = await client
      .batch([{ sql: 'insert into thread_t (id) values (10)' }, { sql: 'select 1 / 0' }])
      .catch((e: unknown) => e)
    expect(error).toMatchObject({ code: '22012' })
    const { rows } = await client.query('select id from thread_t where id = 10')
    expect(rows).toEqual([])
    const [next] = await client.batch([{ sql: 'select 1 as one' }])
    expect(next?.rows).toEqual([{ one: 1 }])
  })

  it('runs a batch only once an open transaction has ended, never inside it', async () => {
    let release = () => {}
    const held = client.transaction(async (tx) => {
      await tx.query(`select set_config('app.step', 'held', true)`)
      await new Promise<void>((resolve) => (release = resolve))
    })
    await new Promise((resolve) => setTimeout(resolve, 20))
    let batchDone = false
    const batch = client
      .batch([{ sql: `select current_setting('app.step', true) as step` }])
      .finally(() => (batchDone = true))
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(batchDone).toBe(false)
    release()
    await held
    expect((await batch)[0]?.rows).toEqual([{ step: '' }])
  })

  it('runs foreground work that arrives behind queued background batches before all of them', async () => {
    await client.exec('create table lane_log (seq serial primary key, who text)')
    const insert = (who: string) => ({
      sql: 'insert into lane_log (who) values ($1)',
      params: [who],
    })
    // Everything below is sent while a transaction holds the database, so all of it queues.
    let release = () => {}
    let opened = () => {}
    const open = new Promise<void>((resolve) => (opened = resolve))
    const held = client.transaction(async (tx) => {
      await tx.query(insert('transaction').sql, insert('transaction').params)
      opened()
      await new Promise<void>((resolve) => (release = resolve))
    })
    await open
    const sent = [
      client.background([insert('background 1')]),
      client.background([insert('background 2')]),
      client.query(insert('foreground').sql, insert('foreground').params),
      client.background([insert('background 3')]),
      client.batch([insert('foreground batch')]),
    ]
    release()
    await Promise.all([held, ...sent])
    const { rows } = await client.query<{ who: string }>('select who from lane_log order by seq')
    expect(rows.map((r) => r.who)).toEqual([
      'transaction',
      'foreground',
      'foreground batch',
      'background 1',
      'background 2',
      'background 3',
    ])
  })

  it('stops a background batch before its next statement when foreground work arrives, keeping those that ran', async () => {
    await client.exec('create table stop_log (seq serial primary key, who text)')
    const insert = (who: string) => ({
      sql: 'insert into stop_log (who) values ($1)',
      params: [who],
    })
    // Sent together: the batch starts first (nothing else is on the thread) and the query,
    // arriving behind it, waits for the statement running, not for the rest. The first statement
    // lasts a while, so that the query has reached the thread before it ends even when this
    // process is descheduled between the two sends (a loaded machine).
    const slow = {
      sql: 'insert into stop_log (who) select $1 from pg_sleep(0.3)',
      params: ['b1'],
    }
    const background = client.background([slow, insert('b2'), insert('b3')], {
      mayStopAfter: 1,
    })
    const foreground = client.query(insert('f').sql, insert('f').params)
    const [run] = await Promise.all([background, foreground])
    expect(run.results.map((r) => r.affectedRows)).toEqual([1])
    expect(run.contended).toBe(true)
    const { rows } = await client.query<{ who: string }>('select who from stop_log order by seq')
    expect(rows.map((r) => r.who)).toEqual(['b1', 'f'])
  })

  it('runs a whole background batch when no other work arrives, and says nobody waited', async () => {
    await client.exec('create table whole_log (who text)')
    const insert = (who: string) => ({
      sql: 'insert into whole_log (who) values ($1)',
      params: [who],
    })
    const run = await client.background([insert('b1'), insert('b2'), insert('b3')], {
      mayStopAfter: 1,
    })
    expect(run.results.map((r) => r.affectedRows)).toEqual([1, 1, 1])
    expect(run.contended).toBe(false)
    const { rows } = await client.query<{ n: number }>('select count(*)::int as n from whole_log')
    expect(rows).toEqual([{ n: 3 }])
  })

  it('rolls a background batch back whole when a statement after its first ones fails', async () => {
    await client.exec('create table failed_log (id int primary key)')
    const insert = (id: number) => ({
      sql: 'insert into failed_log (id) values ($1)',
      params: [id],
    })
    await expect(
      client.background([insert(1), insert(2), insert(2)], { mayStopAfter: 1 }),
    ).rejects.toMatchObject({ code: '23505' })
    const { rows } = await client.query<{ n: number }>('select count(*)::int as n from failed_log')
    expect(rows).toEqual([{ n: 0 }])
    // The thread goes on: the next background batch runs.
    expect((await client.background([insert(1)])).results).toHaveLength(1)
  })

  it('parses a batch statement again after a table change made its cached plan invalid', async () => {
    await client.exec('create table batch_shape (id int); insert into batch_shape values (3)')
    const read = () => client.batch([{ sql: 'select * from batch_shape' }])
    expect((await read())[0]?.rows).toEqual([{ id: 3 }])
    await client.exec('alter table batch_shape add column note text')
    await expect(read()).rejects.toThrow(/cached plan must not change result type/)
    expect((await read())[0]?.rows).toEqual([{ id: 3, note: null }])
  })

  it('reports a thread that stopped on its own and fails every later call', async () => {
    const template = new Blob([new Uint8Array(await readFile(inject('pgliteTemplate')))])
    const stopped: Error[] = []
    const thread = await PgliteThread.open({ loadDataDir: template }, (e) => stopped.push(e))
    await (thread as unknown as { worker: Worker }).worker.terminate() // as a crash would
    await vi.waitFor(() => expect(stopped).toHaveLength(1))
    await expect(thread.query('select 1')).rejects.toThrow(/database thread stopped/)
  })

  it('leaves the event loop free while a long statement runs', async () => {
    let ticks = 0
    const timer = setInterval(() => ticks++, 5)
    try {
      await client.query('select count(*) from generate_series(1, 3000000)')
    } finally {
      clearInterval(timer)
    }
    expect(ticks).toBeGreaterThan(3)
  })
})
