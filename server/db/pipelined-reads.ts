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

/** Marks `promise` as handled (its failure is reported elsewhere) and returns it. */
function handled<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {})
  return promise
}

/** A read transaction under way on one pooled client. */
interface OpenTransaction {
  /** Sends a read; answers its result. Only before `close`. */
  send(config: QueryConfig, values?: unknown[]): Promise<pg.QueryResult>
  /** Sends COMMIT and writes what was asked for to the socket; once only. */
  close(): void
  readonly closed: boolean
  /** Settles when BEGIN and `before` have run; rejects with the first one's failure. */
  readonly entered: Promise<unknown>
  /** Settles when COMMIT has been answered and the client is back in the pool. */
  readonly committed: Promise<void>
}

/** Opens a transaction on a client of `pool` and sends BEGIN and `before` (not yet written). */
async function openTransaction(
  pool: pg.Pool,
  before: readonly PgStatement[],
): Promise<OpenTransaction> {
  const client = await pool.connect()
  // Corked, the statements go out in one write when the transaction closes (net.Socket#cork).
  const socket = (client as unknown as { connection?: { stream?: CorkableSocket } }).connection
    ?.stream
  socket?.cork?.()
  const entered = handled(
    Promise.all([client.query('BEGIN'), ...before.map((s) => client.query(prepared(s)))]),
  )
  let closed = false
  let stale = false
  let commit: () => void = () => {}
  const committed = new Promise<void>((resolve) => (commit = resolve))
  return {
    send: (config, values) => {
      const result = client.query(config as pg.QueryConfig, values as unknown[] | undefined)
      // Marks the rejection handled (reported where the read is awaited) and notes a stale plan,
      // in one handler: no second promise chained on every read.
      result.catch((error: unknown) => {
        if ((error as { code?: unknown }).code === PLAN_RESULT_CHANGED) stale = true
      })
      return result
    },
    close() {
      if (closed) return
      closed = true
      client
        .query('COMMIT')
        .then(
          () => client.release(stale ? new Error('a prepared read no longer fits') : undefined),
          // A connection whose COMMIT failed is not reused.
          (error: Error) => client.release(error),
        )
        .finally(commit)
      socket?.uncork?.()
    },
    get closed() {
      return closed
    },
    entered,
    committed,
  }
}

/** The part of net.Socket corking the client's writes (absent on other streams). */
interface CorkableSocket {
  cork?: () => void
  uncork?: () => void
}

/** Runs one statement `config` in a read transaction of its own, after `before`. */
async function readAlone(
  pool: pg.Pool,
  before: readonly PgStatement[],
  config: QueryConfig,
  values?: unknown[],
): Promise<pg.QueryResult> {
  const tx = await openTransaction(pool, before)
  const result = tx.send(config, values)
  tx.close()
  await tx.entered
  return result
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
export async function pipelinedReads<const Reads extends readonly PromiseLike<unknown>[]>(
  pool: pg.Pool,
  logger: Logger | undefined,
  before: readonly PgStatement[],
  reads: (db: Db) => Reads,
  options: { prepareReads?: boolean } = {},
): Promise<unknown[]> {
  const tx = await openTransaction(pool, before)
  let sent = 0
  let expected = Infinity
  const collector = {
    query(asked: QueryConfig, values?: unknown[]) {
      const config = options.prepareReads
        ? named(typeof asked === 'string' ? { text: asked } : asked)
        : asked
      if (tx.closed) return readAlone(pool, before, config, values)
      const result = tx.send(config, values)
      if (++sent >= expected) tx.close()
      return result
    },
  }
  const handle = drizzle({ client: collector as unknown as pg.PoolClient, logger })
  direct.set(handle, (statement) => {
    logger?.logQuery(statement.sql, statement.params)
    return collector.query({ text: statement.sql, types: DRIZZLE_TYPES }, statement.params)
  })
  let built: Reads
  try {
    built = reads(handle as unknown as Db)
  } catch (error) {
    tx.close()
    throw error
  }
  // Drizzle queries reach the handle when awaited (Promise.all below, within this tick's
  // microtasks); a read that never does is sent alone once they have run.
  expected = built.length
  const results = handled(Promise.all(built))
  if (sent >= expected) tx.close()
  else setImmediate(() => tx.close())
  await tx.entered
  const answers = await results
  await tx.committed
  return answers
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
