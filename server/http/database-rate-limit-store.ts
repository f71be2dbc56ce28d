/**
 * The shared store of @fastify/rate-limit in server mode: counters in the database
 * (`rate_limit_counters`), so that several server processes on one PostgreSQL count a client's
 * requests together (issue 28, decision 0064): two instances behind a load balancer must not each
 * grant the full budget. On embedded PGlite (one process) the plugin's own in-memory store is
 * used instead. A fixed window per key, as the plugin's own store keeps: the first request opens
 * it for `timeWindow` ms, each one after adds a hit, and the window past its end starts again at
 * one. Keys are stored as their SHA-256: a limiter's key may hold an address or an e-mail. Rows
 * of windows that ended a minute ago are deleted every PRUNE_EVERY counts.
 *
 * One upsert per counted request, through the plugin's store interface and nothing more: its
 * earlier batching and leases (decisions 0086, 0093) were given back (decision 0123) when the
 * server bench showed no figure needing them. Flood control (a client's burst of many thousand
 * requests) belongs at the load balancer in front of the instances (docs/deploying.md), not here.
 */
import { createHash } from 'node:crypto'
import { sql } from 'drizzle-orm'
import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import type { Db } from '../db/client'

/** Counts between two deletions of ended windows (a few a minute under the default budgets). */
const PRUNE_EVERY = 1000

/** What the plugin passes to `child`: a route's options carry the route (`routeInfo`). */
interface ChildOptions {
  routeInfo?: { method?: string | string[]; url?: string }
}

/** The plugin's answer for one counted request: hits in the window so far, ms left in it. */
interface Count {
  current: number
  ttl: number
}

/**
 * Adds one hit to `key`'s window of `timeWindowMs` ms (opening a new one if it has ended) and
 * returns the window's hits and the ms left in it. Throws what the database throws.
 */
async function countHit(db: Db, key: string, timeWindowMs: number): Promise<Count> {
  const result = await db.execute(sql`
    INSERT INTO rate_limit_counters AS c (key, hits, window_ends)
    VALUES (${key}, 1, now() + make_interval(secs => ${timeWindowMs / 1000}::float8))
    ON CONFLICT (key) DO UPDATE SET
      hits = CASE WHEN c.window_ends <= now() THEN 1 ELSE c.hits + 1 END,
      window_ends = CASE WHEN c.window_ends <= now() THEN excluded.window_ends
                    ELSE c.window_ends END
    RETURNING hits,
      greatest(0, extract(epoch FROM window_ends - now()) * 1000)::float8 AS ttl`)
  const [row] = (result as unknown as { rows: Array<{ hits: number; ttl: number }> }).rows
  return { current: Number(row?.hits), ttl: Math.ceil(Number(row?.ttl)) }
}

/**
 * The store class for the plugin's `store` option, counting in `db`. A route's own limit
 * (`config.rateLimit`) counts apart per method and URL; the limiters of `createRateLimit` count
 * by their keys alone, each prefixed with its limiter's name (api-rate-limits.ts, auth-routes.ts).
 */
export function databaseRateLimitStore(db: Db): FastifyRateLimitStoreCtor {
  let counts = 0

  const count = async (key: string, timeWindowMs: number): Promise<Count> => {
    const digest = createHash('sha256').update(key).digest('hex')
    const counted = await countHit(db, digest, timeWindowMs)
    counts += 1
    if (counts % PRUNE_EVERY === 0) {
      await db.execute(
        sql`DELETE FROM rate_limit_counters WHERE window_ends < now() - interval '1 minute'`,
      )
    }
    return counted
  }

  class DatabaseStore {
    private readonly namespace: string

    /** The plugin constructs the root store with its options; `child` passes a namespace. */
    constructor(namespace: unknown) {
      this.namespace = typeof namespace === 'string' ? namespace : ''
    }

    incr(
      key: string,
      callback: (error: Error | null, result?: Count) => void,
      timeWindow: number,
    ): void {
      count(`${this.namespace}${key}`, timeWindow).then(
        (result) => callback(null, result),
        (error: Error) => callback(error),
      )
    }

    child(options: ChildOptions): DatabaseStore {
      const route = options.routeInfo
      return new DatabaseStore(route?.url ? `${String(route.method)} ${route.url} ` : '')
    }
  }
  return DatabaseStore as unknown as FastifyRateLimitStoreCtor
}
