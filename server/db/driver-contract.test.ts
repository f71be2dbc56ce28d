/**
 * The contract between Lexdesk's database code and the insides of its two drivers, pinned so an
 * upgrade of drizzle-orm or @electric-sql/pglite that changes them fails here, by name, rather
 * than as a failure of every list and write.
 *
 * - withTenantReads (tenant.ts) finds the PGlite thread on Drizzle's `$client`, reuses the
 *   statement log kept on `db._.session.logger`, builds reads on a Drizzle handle over a
 *   collecting client, and counts on a Drizzle query reaching `client.query` only once awaited
 *   and before the next macrotask (setImmediate), so one message carries them all.
 * - PgliteThread (pglite-thread.ts) stands in for PGlite under drizzle-orm/pglite: Drizzle must
 *   call only `query(text, params, { rowMode, parsers })` and `transaction(callback)`, with
 *   parsers only for the types the thread reads as text (DRIZZLE_TEXT_TYPES), and let a thrown
 *   error out of the transaction callback (so the thread rolls back).
 * - The thread's worker (pglite-thread-worker.mjs) drives PGlite by its protocol: `execProtocol`
 *   with serialized parse, describe, bind, execute, close and sync messages, `parse` to read the
 *   answers, `runExclusive` and the private `_runExclusiveTransaction` for its locks, instance
 *   `parsers` and `serializers`, and PostgreSQL's error fields as own enumerable properties.
 */
import { readFile } from 'node:fs/promises'
import { eq, sql } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { PGlite, parse, protocol, type Results } from '@electric-sql/pglite'
import { vector } from '@electric-sql/pglite-pgvector'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { DRIZZLE_TEXT_TYPES } from './pglite-thread'
import { documents } from './schema'

interface QueryCall {
  text: string
  params: unknown[]
  options?: { rowMode?: string; parsers?: Record<string, unknown> }
}

/** A stand-in PGlite client that records what Drizzle calls on it, answering no rows. */
function recordingClient() {
  const calls: QueryCall[] = []
  const inTransaction: QueryCall[] = []
  const outcomes: string[] = []
  const answer = (): Results => ({ rows: [], fields: [], affectedRows: 0 })
  const client = {
    query: async (text: string, params: unknown[], options?: QueryCall['options']) => {
      calls.push({ text, params, options })
      return answer()
    },
    transaction: async <T>(callback: (tx: unknown) => Promise<T>): Promise<T> => {
      const handle = {
        query: async (text: string, params: unknown[], options?: QueryCall['options']) => {
          inTransaction.push({ text, params, options })
          return answer()
        },
      }
      try {
        const result = await callback(handle)
        outcomes.push('resolved')
        return result
      } catch (error) {
        outcomes.push('threw')
        throw error
      }
    },
  }
  const db = drizzlePglite({ client: client as unknown as PGlite })
  return { client, db, calls, inTransaction, outcomes }
}

describe('drizzle-orm/pglite as withTenantReads and PgliteThread use it', () => {
  it('keeps the client on $client and the statement log on _.session.logger', () => {
    const client = recordingClient().client
    const logger = { logQuery: () => {} }
    const db = drizzlePglite({ client: client as unknown as PGlite, logger })
    expect(db.$client).toBe(client)
    expect((db._.session as unknown as { logger?: unknown }).logger).toBe(logger)
  })

  it('sends a query only once awaited, and before the next macrotask', async () => {
    const { db, calls } = recordingClient()
    const read = db.select({ id: documents.id }).from(documents).where(eq(documents.orgId, 'o'))
    await Promise.resolve()
    expect(calls).toHaveLength(0)
    const all = Promise.all([read])
    const sentByNextMacrotask = await new Promise((resolve) =>
      setImmediate(() => resolve(calls.length)),
    )
    expect(sentByNextMacrotask).toBe(1)
    await all
    expect(calls[0]?.params).toEqual(['o'])
  })

  it('calls query(text, params, { rowMode, parsers }) with parsers only for the text types', async () => {
    const { db, calls } = recordingClient()
    await db.select({ id: documents.id, at: documents.createdAt }).from(documents)
    await db.execute(sql`select ${1}::int as n`)
    expect(calls).toHaveLength(2)
    for (const call of calls) {
      expect(['array', 'object']).toContain(call.options?.rowMode)
      expect(Object.keys(call.options?.parsers ?? {}).sort()).toEqual(
        DRIZZLE_TEXT_TYPES.map(String).sort(),
      )
    }
  })

  it("runs a transaction on the client's transaction, with its queries on the handle, and lets a throw out", async () => {
    const { db, calls, inTransaction, outcomes } = recordingClient()
    await expect(
      db.transaction(async (tx) => {
        await tx.execute(sql`select 1`)
        throw new Error('callback failed')
      }),
    ).rejects.toThrow('callback failed')
    expect(outcomes).toEqual(['threw'])
    expect(inTransaction.map((c) => c.text)).toEqual(['select 1'])
    expect(calls).toEqual([])
  })

  it('renders SQL as $n placeholders with the parameters in order (PgDialect.sqlToQuery)', () => {
    const query = new PgDialect().sqlToQuery(
      sql`select ${'a'}, ${2}, set_config('x', ${'b'}, true)`,
    )
    expect(query).toMatchObject({
      sql: "select $1, $2, set_config('x', $3, true)",
      params: ['a', 2, 'b'],
    })
  })
})

describe('@electric-sql/pglite as the database thread drives it', () => {
  let client: PGlite
  const { serialize } = protocol

  beforeAll(async () => {
    const template = await readFile(inject('pgliteTemplate'))
    client = await PGlite.create({
      loadDataDir: new Blob([new Uint8Array(template)]),
      extensions: { vector, pg_trgm },
    })
  })
  afterAll(() => client?.close())

  /** Prepares `text` as statement `name`; its parameter type oids. */
  async function prepare(name: string, text: string): Promise<number[]> {
    const { messages } = await client.execProtocol(
      Buffer.concat([
        serialize.parse({ name, text }),
        serialize.describe({ type: 'S', name }),
        serialize.sync(),
      ]),
      { syncToFs: false },
    )
    return parse.parseDescribeStatementResults(messages)
  }

  it('offers the methods and fields the worker calls', () => {
    const methods = [
      'query',
      'exec',
      'transaction',
      'execProtocol',
      'runExclusive',
      '_runExclusiveTransaction',
      'dumpDataDir',
      'close',
    ] as const
    for (const method of methods) expect(typeof client[method], method).toBe('function')
    expect(typeof client.parsers).toBe('object')
    expect(typeof client.serializers).toBe('object')
    for (const message of ['parse', 'describe', 'bind', 'execute', 'close', 'sync', 'query'])
      expect(typeof (serialize as Record<string, unknown>)[message], message).toBe('function')
    expect(typeof parse.parseDescribeStatementResults).toBe('function')
    expect(typeof parse.parseResults).toBe('function')
  })

  it('prepares, binds and executes a named statement through execProtocol', async () => {
    expect(await prepare('contract_1', 'select $1::int4 + 1 as n, $2::text as t')).toEqual([23, 25])
    const run = async (rowMode: 'array' | 'object') => {
      const { messages } = await client.execProtocol(
        Buffer.concat([
          serialize.bind({
            statement: 'contract_1',
            values: [client.serializers[23]!(41) as string, 'x'],
          }),
          serialize.describe({ type: 'P' }),
          serialize.execute({}),
          serialize.sync(),
        ]),
        { syncToFs: false },
      )
      return parse.parseResults(messages, client.parsers, { rowMode })[0]?.rows
    }
    expect(await run('object')).toEqual([{ n: 42, t: 'x' }])
    expect(await run('array')).toEqual([[42, 'x']])
    await client.execProtocol(
      Buffer.concat([serialize.close({ type: 'S', name: 'contract_1' }), serialize.sync()]),
      { syncToFs: false },
    )
  })

  it('answers a batch message with one run per command, each ended by commandComplete', async () => {
    await prepare('contract_begin', 'BEGIN')
    await prepare('contract_commit', 'COMMIT')
    await prepare('contract_2', 'select $1::int4 as n')
    const { messages } = await client.execProtocol(
      Buffer.concat([
        serialize.bind({ statement: 'contract_begin', values: [] }),
        serialize.execute({}),
        ...[1, 2].flatMap((n) => [
          serialize.bind({ statement: 'contract_2', values: [String(n)] }),
          serialize.describe({ type: 'P' }),
          serialize.execute({}),
        ]),
        serialize.bind({ statement: 'contract_commit', values: [] }),
        serialize.execute({}),
        serialize.sync(),
      ]),
      { syncToFs: false },
    )
    const names = messages.map((m) => m.name)
    expect(names.filter((name) => name === 'commandComplete')).toHaveLength(4)
    expect(names.at(-1)).toBe('readyForQuery')
  })

  it("throws PostgreSQL's error fields as own enumerable properties, and stays usable", async () => {
    await client.exec('create temporary table contract_t (id int primary key)')
    await client.exec('insert into contract_t values (1)')
    const error = await client
      .execProtocol(serialize.query('insert into contract_t values (1)'), { syncToFs: false })
      .then(
        () => undefined,
        (e: unknown) => e,
      )
    expect(error).toBeInstanceOf(Error)
    const own = Object.fromEntries(Object.entries(error as object))
    expect(own).toMatchObject({ code: '23505', constraint: 'contract_t_pkey' })
    expect((await client.query('select 1 as ok')).rows).toEqual([{ ok: 1 }])
  })

  it('lets _runExclusiveTransaction wait for an open transaction to end', async () => {
    let release = () => {}
    const gate = new Promise<void>((resolve) => (release = resolve))
    const order: string[] = []
    const open = client.transaction(async (tx) => {
      await tx.query('select 1')
      order.push('transaction open')
      await gate
      order.push('transaction ends')
    })
    await new Promise((resolve) => setImmediate(resolve))
    const exclusive = client._runExclusiveTransaction(async () => {
      order.push('exclusive runs')
    })
    await new Promise((resolve) => setImmediate(resolve))
    release()
    await Promise.all([open, exclusive])
    expect(order).toEqual(['transaction open', 'transaction ends', 'exclusive runs'])
  })

  it("reads a type with the instance's parser once it is replaced", async () => {
    const query = "select '2026-01-02 03:04:05'::timestamp as at"
    const before = client.parsers[1114]
    try {
      expect((await client.query<{ at: unknown }>(query)).rows[0]?.at).toBeInstanceOf(Date)
      client.parsers[1114] = (value: string) => value
      expect((await client.query<{ at: unknown }>(query)).rows[0]?.at).toBe('2026-01-02 03:04:05')
    } finally {
      if (before) client.parsers[1114] = before
    }
  })

  it('switches role and org for one transaction only, as withTenant sets them', async () => {
    const inside = await client.transaction(async (tx) => {
      await tx.query(
        "select set_config('role', 'lexdesk_app', true), set_config('app.org_id', $1, true)",
        ['org-1'],
      )
      return (
        await tx.query<{ role: string; org: string }>(
          "select current_user as role, current_setting('app.org_id') as org",
        )
      ).rows[0]
    })
    expect(inside).toEqual({ role: 'lexdesk_app', org: 'org-1' })
    const after = await client.query<{ role: string; org: string | null }>(
      "select current_user as role, current_setting('app.org_id', true) as org",
    )
    expect(after.rows[0]?.role).not.toBe('lexdesk_app')
    expect(after.rows[0]?.org ?? '').toBe('')
  })
})
