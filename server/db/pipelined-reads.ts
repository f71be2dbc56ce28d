/**
 * Tenant reads on PostgreSQL in one round trip (withTenantReads, decision 0089). The pool's
 * clients run in node-postgres' pipeline mode (client.ts): each query goes out when it is asked
 * for, without waiting for the answer before it, and PostgreSQL answers them in order. A tenant
 * read transaction (BEGIN, the confining statement and any settings, the reads, COMMIT) is
 * written to the socket as one message (the socket is corked while they are asked for), where
 * Drizzle's transaction waited for each answer before sending the next: four round trips for a
 * listing. Every statement keeps its own Sync, so the transaction is PostgreSQL's explicit one:
 * once a statement fails, PostgreSQL refuses every later one until COMMIT, which then rolls back;
 * a read never runs outside the tenant.
 */
import { createHash } from 'node:crypto'
import type { Logger } from 'drizzle-orm/logger'
import { drizzle } from 'drizzle-orm/node-postgres'
import pg from 'pg'
import type { Db } from './client'

/** A statement with its parameters, as Drizzle's dialect renders one (`sqlToQuery`). */
export interface PgStatement {
  sql: string
  params: unknown[]
}

type QueryConfig = pg.QueryConfig | string

/**
 * Prepared-statement names by text: the statements run before reads (a handful a process) and
 * the reads of transactions that reuse plans (one per kind of read, decision 0095). Bounded,
 * since PostgreSQL keeps every statement prepared on a connection until it closes: past
 * MAX_NAMES texts, a new text is sent unnamed (parsed each time, as before).
 */
const names = new Map<string, string>()
const MAX_NAMES = 500

/**
 * `config` as a prepared statement named after its text: PostgreSQL parses (and may plan) it
 * once per connection instead of once per transaction, and node-postgres no longer sends its
 * text. Unnamed as it was past MAX_NAMES texts or for a config that names itself.
 */
function named(config: pg.QueryConfig): pg.QueryConfig {
  if (config.name) return config
  let name = names.get(config.text)
  if (!name) {
    if (names.size >= MAX_NAMES) return config
    name = `lexdesk_${createHash('sha256').update(config.text).digest('hex').slice(0, 24)}`
    names.set(config.text, name)
  }
  return { ...config, name }
}

/** A statement run before reads, prepared (named). */
const prepared = (statement: PgStatement) =>
  named({ text: statement.sql, values: statement.params })

/**
 * SQLSTATE 0A000 (feature_not_supported), which PostgreSQL gives as "cached plan must not change
 * result type" when a table under a prepared read changed (another instance's migration in a
 * rolling upgrade, say). The connection keeps the statement and would refuse it on every later
 * run, so a transaction that met it gives its connection back to be closed, not reused; the
 * next run prepares the statement again on another. Other causes of 0A000 are rare for reads,
 * and closing a connection for them costs one reconnection.
 */
const PLAN_RESULT_CHANGED = '0A000'

/** Answers a statement of the transaction (node-postgres' callback, so no promise of its own). */
type Answer = (error: Error | null, result: pg.QueryResult) => void

/**
 * A read transaction under way on one pooled client. BEGIN, `before` and COMMIT go with
 * node-postgres' callbacks and each read with one promise: the pool's and node-postgres' own
 * promises, with the handlers chained on them, were a third of the ~60 promises a listing made
 * (decision 0098), each paid again in AsyncLocalStorage's promise hooks and the collector.
 */
interface OpenTransaction {
  /** Sends a read; answers its result. Only before `close`. */
  send(config: QueryConfig, values?: unknown[]): Promise<pg.QueryResult>
  /** Sends COMMIT and writes what was asked for to the socket; once only. */
  close(): void
  readonly closed: boolean
}

/**
 * Sends BEGIN and `before` on `client` (written when the transaction closes). `entered` is
 * called once: with the first failure of BEGIN or `before`, or with null once all have run.
 * `committed` is called once COMMIT was answered and the client is back in the pool.
 */
function openTransaction(
  client: pg.PoolClient,
  before: readonly PgStatement[],
  entered: (error: Error | null) => void,
  committed: () => void,
): OpenTransaction {
  // Corked, the statements go out in one write when the transaction closes (net.Socket#cork).
  const socket = (client as unknown as { connection?: { stream?: CorkableSocket } }).connection
    ?.stream
  socket?.cork?.()
  let waiting = 1 + before.length
  const entering = (error: Error | null) => {
    if (waiting === 0) return
    waiting = error ? 0 : waiting - 1
    if (error || waiting === 0) entered(error)
  }
  client.query('BEGIN', entering)
  for (const statement of before) client.query(prepared(statement), entering)
  let closed = false
  let stale = false
  return {
    send: (config, values) =>
      new Promise((resolve, reject) => {
        const answer: Answer = (error, result) => {
          if (!error) return resolve(result)
          if ((error as { code?: unknown }).code === PLAN_RESULT_CHANGED) stale = true
          reject(error)
        }
        const text = typeof config === 'string' ? { text: config } : config
        client.query(values === undefined ? text : { ...text, values }, answer)
      }),
    close() {
      if (closed) return
      closed = true
      client.query('COMMIT', (error: Error | null) => {
        // A connection whose COMMIT failed, or that holds a stale prepared read, is not reused.
        client.release(error ?? (stale ? new Error('a prepared read no longer fits') : undefined))
        committed()
      })
      socket?.uncork?.()
    },
    get closed() {
      return closed
    },
  }
}

/** The part of net.Socket corking the client's writes (absent on other streams). */
interface CorkableSocket {
  cork?: () => void
  uncork?: () => void
}

/** How reads reach a transaction: node-postgres' `query(config, values)`, answering a promise. */
type Send = (config: QueryConfig, values?: unknown[]) => Promise<pg.QueryResult>

/**
 * Runs `before` and the reads `build` makes with the `send` it receives in one transaction on a
 * client of `pool`, and answers the reads' results once COMMIT was answered. A failure of BEGIN
 * or `before` is the error (as soon as it is known), else the first read's failure. A read sent
 * after the transaction closed (one that awaited something else first) runs in a transaction of
 * its own after the same `before`.
 */
function readTransaction(
  pool: pg.Pool,
  before: readonly PgStatement[],
  build: (send: Send) => readonly PromiseLike<unknown>[],
  prepareReads: boolean,
): Promise<unknown[]> {
  return pool.connect().then(
    (client) =>
      new Promise<unknown[]>((resolve, reject) => {
        let settled = false
        let entered = false
        let committed = false
        let answers: unknown[] | undefined
        let readFailure: { error: unknown } | undefined
        const fail = (error: unknown) => {
          if (settled) return
          settled = true
          reject(error)
        }
        // The confinement's failure first; then the reads' (PostgreSQL answers in order).
        const settle = () => {
          if (settled || !entered) return
          if (readFailure) return fail(readFailure.error)
          if (!answers || !committed) return
          settled = true
          resolve(answers)
        }
        const tx = openTransaction(
          client,
          before,
          (error) => {
            if (error) return fail(error)
            entered = true
            settle()
          },
          () => {
            committed = true
            settle()
          },
        )
        let sent = 0
        let expected = Infinity
        const send: Send = (asked, values) => {
          const config = prepareReads
            ? named(typeof asked === 'string' ? { text: asked } : asked)
            : asked
          if (tx.closed) return readAlone(pool, before, config, values)
          const result = tx.send(config, values)
          if (++sent >= expected) tx.close()
          return result
        }
        let built: readonly PromiseLike<unknown>[]
        try {
          built = build(send)
        } catch (error) {
          tx.close()
          return fail(error)
        }
        // Drizzle queries reach the handle when awaited (Promise.all below, within this tick's
        // microtasks); a read that never does is sent alone once they have run.
        expected = built.length
        Promise.all(built).then(
          (results) => {
            answers = results
            settle()
          },
          (error: unknown) => {
            readFailure = { error }
            settle()
          },
        )
        if (sent >= expected) tx.close()
        else setImmediate(() => tx.close())
      }),
  )
}

/** Runs one statement `config` in a read transaction of its own, after `before`. */
function readAlone(
  pool: pg.Pool,
  before: readonly PgStatement[],
  config: QueryConfig,
  values?: unknown[],
): Promise<pg.QueryResult> {
  return readTransaction(pool, before, (send) => [send(config, values)], false).then(
    ([result]) => result as pg.QueryResult,
  )
}

/**
 * withTenantReads on PostgreSQL: runs `before` (the confining statement, settings) and the reads
 * `reads` builds on the handle it receives, in one transaction on one client of `pool`, written
 * as one message, and answers the reads' results in order. `logger` is the database's statement
 * log. A failure of `before` is the error thrown (the reads then fail too: PostgreSQL refuses
 * them in the failed transaction); else the first read's failure. A read that reaches the handle
 * only after the others were sent (one awaiting something else first) runs in a transaction of
 * its own, after the same `before`. With `options.prepareReads` every read goes as a prepared
 * statement named after its text (parsed once per connection; PostgreSQL's plan cache then
 * chooses between a generic plan and one per run, decision 0095).
 */
export function pipelinedReads<const Reads extends readonly PromiseLike<unknown>[]>(
  pool: pg.Pool,
  logger: Logger | undefined,
  before: readonly PgStatement[],
  reads: (db: Db) => Reads,
  options: { prepareReads?: boolean } = {},
): Promise<unknown[]> {
  return readTransaction(
    pool,
    before,
    (send) => {
      const handle = drizzle({ client: { query: send } as unknown as pg.PoolClient, logger })
      direct.set(handle, (statement) => {
        logger?.logQuery(statement.sql, statement.params)
        return send({ text: statement.sql, types: DRIZZLE_TYPES }, statement.params)
      })
      return reads(handle as unknown as Db)
    },
    options.prepareReads === true,
  )
}

/** Types whose text Drizzle's node-postgres driver keeps as it is: dates, times, intervals. */
const TEXT_KEPT = new Set([
  pg.types.builtins.TIMESTAMPTZ,
  pg.types.builtins.TIMESTAMP,
  pg.types.builtins.DATE,
  pg.types.builtins.INTERVAL,
  1231, // numeric[]
  1115, // timestamp[]
  1185, // timestamptz[]
  1187, // interval[]
  1182, // date[]
])

/**
 * The type parsers of Drizzle's reads on node-postgres (drizzle-orm 0.45,
 * node-postgres/session.js, NodePgPreparedQuery), so a read sent directly answers the same
 * values as `db.execute` would.
 */
const DRIZZLE_TYPES = {
  getTypeParser: (oid: number, format?: string) =>
    TEXT_KEPT.has(oid) ? (value: string) => value : pg.types.getTypeParser(oid, format as 'text'),
}

/** The handles pipelinedReads gave, each with the way into its transaction (sendDirect). */
const direct = new WeakMap<object, (statement: PgStatement) => Promise<pg.QueryResult>>()

/**
 * Sends `statement`, already rendered (a text rendered once: statementTemplate), as a read of
 * the transaction behind `db` when pipelinedReads gave that handle, logged as Drizzle logs a
 * statement: past Drizzle's execute path (about six promises a read) and its render of the text,
 * and a prepared read's name is then found by a text whose hash V8 keeps (decision 0098).
 * Undefined for any other handle (PGlite's, a plain database's): run it through Drizzle there.
 */
export function sendDirect(
  db: object,
  statement: PgStatement,
): Promise<pg.QueryResult> | undefined {
  return direct.get(db)?.(statement)
}
