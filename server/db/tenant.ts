/**
 * Tenant transactions. Handlers reach tenant tables only through `withTenant` (or, for reads,
 * `withTenantReads`), which opens a transaction, drops to the non-superuser role `lexdesk_app`
 * (so row-level security applies even on PGlite, whose default user is a superuser) and sets
 * `app.org_id` for the RLS policies; an app-scoped principal's transaction drops to
 * `lexdesk_app_scoped` instead and sets `app.app_id`, so the `app_isolation` policies admit only
 * that app's rows (decision 0048).
 */
import { sql, type SQL } from 'drizzle-orm'
import type { Logger } from 'drizzle-orm/logger'
import { PgDialect } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import type { PGlite } from '@electric-sql/pglite'
import type { ActorType } from './actor-types'
import type { Db } from './client'
import pg from 'pg'
import { PgliteThread, type ThreadQueryOptions, type ThreadStatement } from './pglite-thread'
import { pipelinedReads, sendDirect, type PgStatement } from './pipelined-reads'

/** Who is acting, for which organisation. `orgId` is the tenant every query is confined to. */
export interface Principal {
  orgId: string
  userId: string | null
  role: 'owner' | 'admin' | 'member'
  actorType: ActorType
  /**
   * The credential acting (an API key's id, say), when the principal came from one; absent or
   * null for a session and for the system. The audit log records it beside the user.
   */
  credentialId?: string | null
  /**
   * The one app the principal is confined to (a tenant token or key minted for an app); absent
   * or null for the whole organisation. The database enforces it (`app.app_id`, decision 0048).
   */
  appId?: string | null
}

/** A transaction handle as Drizzle passes it to `db.transaction` callbacks. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

/** Whom a tenant transaction is confined to: an organisation, and within it possibly one app. */
export type TenantScope = Pick<Principal, 'orgId' | 'appId'>

/**
 * The statement that confines a transaction to `scope`: the role switch and the org setting, and
 * for one app the role whose `app_isolation` policies admit only that app's rows (decision 0048)
 * with the app setting they read. Exported for a transaction that does server-level work first
 * and then confines itself (an organisation import's publication, features/archives).
 */
export function enterTenant(scope: TenantScope) {
  if (!scope.appId) {
    return sql`SELECT set_config('role', 'lexdesk_app', true), set_config('app.org_id', ${scope.orgId}, true)`
  }
  return sql`SELECT set_config('role', 'lexdesk_app_scoped', true), set_config('app.org_id', ${scope.orgId}, true), set_config('app.app_id', ${scope.appId}, true)`
}

const dialect = new PgDialect()

/** enterTenant's text for each kind of scope, rendered once: only its values vary. */
const ENTER_ORG = dialect.sqlToQuery(enterTenant({ orgId: '' })).sql
const ENTER_APP = dialect.sqlToQuery(enterTenant({ orgId: '', appId: 'an app' })).sql

/**
 * enterTenant(scope) as the statement sent ($1 the organisation, $2 the app), its text one
 * string rendered once instead of once a transaction, so the prepared statement named after it
 * (pipelined-reads.ts) is found without hashing a new text every time (decision 0098).
 */
export function enterTenantStatement(scope: TenantScope): { sql: string; params: unknown[] } {
  return scope.appId
    ? { sql: ENTER_APP, params: [scope.orgId, scope.appId] }
    : { sql: ENTER_ORG, params: [scope.orgId] }
}

/** The results of withTenantReads' reads, in their order. */
export type ReadResults<Reads extends readonly PromiseLike<unknown>[]> = {
  -readonly [K in keyof Reads]: Awaited<Reads[K]>
}

/** Options of withTenantReads. */
export interface TenantReadOptions {
  /**
   * Statements run first in the transaction (transaction-local `set_config` calls, say). Fixed
   * texts with their values as parameters: on PostgreSQL each text becomes a prepared statement
   * of every connection (pipelined-reads.ts).
   */
  settings?: SQL[]
  /**
   * Plan each read once and reuse the plan (a generic plan), on embedded PGlite, where every
   * statement is a prepared one (decision 32). On PostgreSQL each read goes as a prepared
   * statement named after its text, parsed once per connection, whose plan PostgreSQL's plan
   * cache reuses once a generic plan costs no more than planning each run (decision 0095);
   * elsewhere nothing changes. For reads whose best plan does not depend on their values: a page
   * walking an index under equality filters, a count. Planning such a page again for each run
   * cost about a quarter of its time (decision 7). Not for searches, whose best plan depends on
   * the text searched.
   */
  reusePlans?: boolean
}

/** Makes the statements of a transaction reuse their generic plans (TenantReadOptions). */
export const REUSE_PLANS = sql`SELECT set_config('plan_cache_mode', 'force_generic_plan', true)`

/**
 * Runs read statements for the tenant in one transaction of their own, confined as withTenant's,
 * after `options.settings`, and answers their results in order. `reads` builds them on the handle it receives and returns them unawaited:
 * Drizzle queries, or promises that each run exactly one query on that handle (a page and its
 * count, say). On embedded PGlite the confining statement, the settings and every read go to
 * the database thread as one message (PgliteThread.batch), so the transaction never waits for
 * this thread between them (decision 32); on PostgreSQL the transaction, the confining statement,
 * the settings and the reads go out in one write on one connection and come back in one round
 * trip (pipelined-reads.ts, decision 0089).
 * A query that reaches the handle only after the others were sent (one awaiting something else
 * first) runs in a transaction of its own, confined the same way.
 */
export function withTenantReads<const Reads extends readonly PromiseLike<unknown>[]>(
  db: Db,
  principal: TenantScope,
  reads: (db: Db) => Reads,
  options: TenantReadOptions = {},
): Promise<ReadResults<Reads>> {
  const settings = options.settings ?? []
  const client = (db as unknown as { $client?: unknown }).$client
  // The same statement log as `db` (drizzle keeps it on the session).
  const logger = (db._.session as unknown as { logger?: Logger }).logger
  // Not an async function: on PostgreSQL the listing's path awaits the reads' own promise, not
  // a wrapper around it too (decision 0098).
  if (client instanceof pg.Pool) {
    const before = [enterTenantStatement(principal), ...settings.map((q) => dialect.sqlToQuery(q))]
    return pipelinedReads(client, logger, before, reads, {
      prepareReads: options.reusePlans,
    }) as Promise<ReadResults<Reads>>
  }
  if (!(client instanceof PgliteThread)) {
    return withTenant(db, principal, async (tx) => {
      for (const setting of settings) await tx.execute(setting)
      return (await Promise.all(reads(tx))) as ReadResults<Reads>
    })
  }
  return threadReads(client, logger, principal, reads, options)
}

/**
 * withTenantReads on embedded PGlite: the confining statement, the settings and every read go
 * to the database thread as one message (PgliteThread.batch, decision 32).
 */
async function threadReads<const Reads extends readonly PromiseLike<unknown>[]>(
  client: PgliteThread,
  logger: Logger | undefined,
  principal: TenantScope,
  reads: (db: Db) => Reads,
  options: TenantReadOptions,
): Promise<ReadResults<Reads>> {
  const before = [
    enterTenantStatement(principal),
    ...[...(options.reusePlans ? [REUSE_PLANS] : []), ...(options.settings ?? [])].map((q) =>
      dialect.sqlToQuery(q),
    ),
  ]
  interface Waiting {
    statement: ThreadStatement
    resolve: (result: unknown) => void
    reject: (error: unknown) => void
  }
  const send = (list: Waiting[]) => {
    if (list.length === 0) return
    try {
      client.batch([...before, ...list.map((w) => w.statement)]).then(
        (results) => list.forEach((w, i) => w.resolve(results[before.length + i])),
        (error: unknown) => list.forEach((w) => w.reject(error)),
      )
    } catch (error) {
      list.forEach((w) => w.reject(error)) // refused before sending (per-query parsers, say)
    }
  }
  const waiting: Waiting[] = []
  let expected = Infinity
  let sent = false
  const flush = () => {
    if (sent) return
    sent = true
    send(waiting.splice(0))
  }
  const collector = {
    query: (text: string, params: unknown[], options?: ThreadQueryOptions) =>
      new Promise((resolve, reject) => {
        const read = { statement: { sql: text, params, options }, resolve, reject }
        if (sent) {
          send([read])
        } else {
          waiting.push(read)
          if (waiting.length >= expected) flush()
        }
      }),
  }
  const handle = drizzlePglite({ client: collector as unknown as PGlite, logger })
  const built = reads(handle as unknown as Db)
  // Drizzle queries reach the handle when awaited (Promise.all below, within this tick's
  // microtasks); a read that never does is sent alone once they have run.
  expected = built.length
  if (expected === 0) return [] as unknown as ReadResults<Reads>
  if (waiting.length >= expected) flush()
  else setImmediate(flush)
  return (await Promise.all(built)) as ReadResults<Reads>
}

/**
 * One of withTenantReads' reads, given both as its text rendered once with its values
 * (`rendered`: statementTemplate's `text` and `params`) and as Drizzle's `sql` (`statement`,
 * built only when used). On PostgreSQL it goes into the transaction as it is, past Drizzle's
 * execute path (pipelined-reads.ts' sendDirect, decision 0098); on PGlite, and on any handle
 * not given by withTenantReads, through `db.execute(statement())`. Answers what `db.execute`
 * answers (the driver's result: `rows` as objects).
 */
export function readRendered(
  db: Db,
  rendered: PgStatement,
  statement: () => SQL,
): PromiseLike<unknown> {
  return sendDirect(db, rendered) ?? db.execute(statement())
}

/**
 * Runs `fn` in a transaction confined by RLS to `principal.orgId` (and to `principal.appId` when
 * set); rolls back if `fn` throws.
 * The role switch and the org setting go in one statement: `set_config('role', …, true)` is what
 * `SET LOCAL ROLE` does, and both settings end with the transaction. That statement is sent
 * without waiting for its answer, so `fn`'s first query follows it at once (one wait for the
 * database fewer, decision 32). This is safe because PostgreSQL runs a transaction's statements
 * in order and, once one fails, refuses every later one of the transaction: `fn` never runs a
 * statement outside the tenant. Its failure is the error reported.
 */
export function withTenant<T>(
  db: Db,
  principal: TenantScope,
  fn: (tx: Tx) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    // Drizzle runs a query each time its `then` is called: call it once, now.
    const entered = new Promise((resolve, reject) => {
      tx.execute(enterTenant(principal)).then(resolve, reject)
    })
    entered.catch(() => {}) // awaited below, after fn: not an unhandled rejection meanwhile
    let result: T
    try {
      result = await fn(tx)
    } catch (error) {
      await entered
      throw error
    }
    await entered
    return result
  })
}
