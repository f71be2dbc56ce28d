/**
 * Tenant transactions. Handlers reach tenant tables only through `withTenant`, which opens a
 * transaction, drops to the non-superuser role `lexdesk_app` (so row-level security applies even
 * on PGlite, whose default user is a superuser) and sets `app.org_id` for the RLS policies.
 */
import { sql, type SQL } from 'drizzle-orm'
import type { Logger } from 'drizzle-orm/logger'
import { PgDialect } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import type { PGlite } from '@electric-sql/pglite'
import type { Db } from './client'
import { PgliteThread, type ThreadQueryOptions } from './pglite-thread'

/** Who is acting, for which organisation. `orgId` is the tenant every query is confined to. */
export interface Principal {
  orgId: string
  userId: string | null
  role: 'owner' | 'admin' | 'member'
  actorType: 'user' | 'api_key' | 'gpt' | 'system'
}

/** A transaction handle as Drizzle passes it to `db.transaction` callbacks. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

/** The statement that confines a transaction to `orgId`: the role switch and the org setting. */
function enterTenant(orgId: string) {
  return sql`SELECT set_config('role', 'lexdesk_app', true), set_config('app.org_id', ${orgId}, true)`
}

const dialect = new PgDialect()

/**
 * Runs one read statement for the tenant in a transaction of its own, confined as withTenant's,
 * after the `settings` statements (transaction-local `set_config` calls, say). On embedded PGlite
 * the confining statement, the settings and `statement`'s query go to the database thread as one
 * message (PgliteThread.batch), so the transaction never waits for this thread between them
 * (decision 32); on PostgreSQL this is withTenant. `statement` runs exactly one query on the
 * handle it receives (a second one would run in a transaction of its own, confined the same way).
 */
export function withTenantStatement<T>(
  db: Db,
  principal: Pick<Principal, 'orgId'>,
  statement: (db: Db) => Promise<T>,
  settings: SQL[] = [],
): Promise<T> {
  const client = (db as unknown as { $client?: unknown }).$client
  if (!(client instanceof PgliteThread)) {
    return withTenant(db, principal, async (tx) => {
      for (const setting of settings) await tx.execute(setting)
      return statement(tx)
    })
  }
  const before = [enterTenant(principal.orgId), ...settings].map((q) => dialect.sqlToQuery(q))
  const oneStatement = {
    query: async (text: string, params: unknown[], options?: ThreadQueryOptions) => {
      const results = await client.batch([...before, { sql: text, params, options }])
      return results[results.length - 1]
    },
  }
  // The same statement log as `db` (drizzle keeps it on the session).
  const logger = (db._.session as unknown as { logger?: Logger }).logger
  const once = drizzlePglite({ client: oneStatement as unknown as PGlite, logger })
  return statement(once as unknown as Db)
}

/**
 * Runs `fn` in a transaction confined by RLS to `principal.orgId`; rolls back if `fn` throws.
 * The role switch and the org setting go in one statement: `set_config('role', …, true)` is what
 * `SET LOCAL ROLE` does, and both settings end with the transaction. That statement is sent
 * without waiting for its answer, so `fn`'s first query follows it at once (one wait for the
 * database fewer, decision 32). This is safe because PostgreSQL runs a transaction's statements
 * in order and, once one fails, refuses every later one of the transaction: `fn` never runs a
 * statement outside the tenant. Its failure is the error reported.
 */
export function withTenant<T>(
  db: Db,
  principal: Pick<Principal, 'orgId'>,
  fn: (tx: Tx) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    // Drizzle runs a query each time its `then` is called: call it once, now.
    const entered = new Promise((resolve, reject) => {
      tx.execute(enterTenant(principal.orgId)).then(resolve, reject)
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
