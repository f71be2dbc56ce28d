/**
 * Tenant writes nobody waits on (indexing a document's passages), run so that requests go first
 * (decision 0082).
 */
import type { SQL } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import type { Db } from './client'
import { PgliteThread } from './pglite-thread'
import { enterTenant, REUSE_PLANS, withTenant, type TenantScope } from './tenant'

/** What withTenantBackground's transaction did. */
export interface TenantBackgroundRun {
  /** The rows of each statement run, in order: all of them, or the first ones when it stopped. */
  results: { rows: unknown[] }[]
  /** How long the transaction held the database, in ms (see PgliteThread's BackgroundRun). */
  heldMs: number
  /** Whether requests waited for the database meanwhile (always false on PostgreSQL). */
  contended: boolean
}

const dialect = new PgDialect()

/**
 * Runs `statements` in order for the tenant in one transaction of their own, confined as
 * withTenant's, with reused (generic) plans. On embedded PGlite it is one message to the database
 * thread's background lane (PgliteThread.background): it starts when no request's work is on the
 * thread, and once its first `mayStopAfter` statements (default: all) have run it stops before any
 * further one when a request's work arrives, committing those that ran; `heldMs` is timed on that
 * thread. On PostgreSQL, whose connections run side by side, it is withTenant running them all,
 * `heldMs` its time and `contended` false. Rejects with the first failing statement's error, and
 * then nothing of it is kept.
 */
export async function withTenantBackground(
  db: Db,
  principal: TenantScope,
  statements: SQL[],
  options: { mayStopAfter?: number } = {},
): Promise<TenantBackgroundRun> {
  const client = (db as unknown as { $client?: unknown }).$client
  if (client instanceof PgliteThread) {
    const before = [enterTenant(principal), REUSE_PLANS]
    const run = await client.background(
      [...before, ...statements].map((q) => dialect.sqlToQuery(q)),
      { mayStopAfter: before.length + (options.mayStopAfter ?? statements.length) },
    )
    return { ...run, results: run.results.slice(before.length) }
  }
  const started = performance.now()
  const results = await withTenant(db, principal, async (tx) => {
    const out: { rows: unknown[] }[] = []
    for (const statement of statements)
      out.push((await tx.execute(statement)) as unknown as { rows: unknown[] })
    return out
  })
  return { results, heldMs: performance.now() - started, contended: false }
}
