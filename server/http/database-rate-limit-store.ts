/**
 * A store for @fastify/rate-limit whose counters live in the database (`rate_limit_counters`),
 * so that several server processes on one PostgreSQL count a client's requests together
 * (issue 28, decision 0064): two instances behind a load balancer must not each grant the full
 * budget. A fixed window per key, as the plugin's own in-memory store keeps: the first request
 * opens it for `timeWindow` ms, each one after adds a hit, and the window past its end starts
 * again at the hits just counted. Keys are stored as their SHA-256: a limiter's key may hold an
 * address or an e-mail. Rows of windows that ended a minute ago are deleted every PRUNE_EVERY
 * counts.
 *
 * Counts are group-committed (decision 0086): while one upsert is on its way, the counts asked
 * for meanwhile wait and then go together in the next one, a row per key with its number of hits
 * (keys sorted, so two processes lock rows in the same order). Every count is still confirmed by
 * the database before its request is answered, so budgets stay exact across processes, but a
 * burst of N concurrent requests costs two statements instead of N, and one user's concurrent
 * requests no longer queue on the lock of their counter's row.
 */
import { createHash } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { LRUCache } from 'lru-cache'
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

/** The counts of one key waiting for the next upsert. */
interface PendingKey {
  timeWindowMs: number
  waiters: Array<{ resolve: (count: Count) => void; reject: (error: Error) => void }>
}

/**
 * Adds each key's hits in one statement; returns each key's hits after the addition and the ms
 * left in its window. Throws what the database throws (no count is then taken).
 */
async function upsertCounts(db: Db, batch: Map<string, PendingKey>) {
  const rows = [...batch]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, pending]) => ({
      key,
      hits: pending.waiters.length,
      secs: pending.timeWindowMs / 1000,
    }))
  const result = await db.execute(sql`
    INSERT INTO rate_limit_counters AS c (key, hits, window_ends)
    SELECT t.key, t.hits, now() + make_interval(secs => t.secs)
      FROM json_to_recordset(${JSON.stringify(rows)}::json) AS t(key text, hits int, secs float8)
    ON CONFLICT (key) DO UPDATE SET
      hits = CASE WHEN c.window_ends <= now() THEN excluded.hits ELSE c.hits + excluded.hits END,
      window_ends = CASE WHEN c.window_ends <= now() THEN excluded.window_ends
                    ELSE c.window_ends END
    RETURNING key, hits,
      greatest(0, extract(epoch FROM window_ends - now()) * 1000)::float8 AS ttl`)
  return (result as unknown as { rows: Array<{ key: string; hits: number; ttl: number }> }).rows
}

/**
 * The store class for the plugin's `store` option, counting in `db`. A route's own limit
 * (`config.rateLimit`) counts apart per method and URL; the limiters of `createRateLimit` count
 * by their keys alone, each prefixed with its limiter's name (api-rate-limits.ts, auth-routes.ts).
 */
export function databaseRateLimitStore(db: Db): FastifyRateLimitStoreCtor {
  let counts = 0
  let pending = new Map<string, PendingKey>()
  let flushing = false

  /** Sends the waiting counts, then those that arrived meanwhile, until none wait. */
  const flush = async () => {
    flushing = true
    while (pending.size > 0) {
      const batch = pending
      pending = new Map()
      try {
        const rows = await upsertCounts(db, batch)
        for (const row of rows) {
          const waiters = batch.get(row.key)!.waiters
          const first = Number(row.hits) - waiters.length + 1
          const ttl = Math.ceil(Number(row.ttl))
          waiters.forEach((waiter, i) => waiter.resolve({ current: first + i, ttl }))
        }
        const before = counts
        for (const { waiters } of batch.values()) counts += waiters.length
        if (Math.floor(counts / PRUNE_EVERY) > Math.floor(before / PRUNE_EVERY)) {
          await db.execute(
            sql`DELETE FROM rate_limit_counters WHERE window_ends < now() - interval '1 minute'`,
          )
        }
      } catch (error) {
        for (const { waiters } of batch.values()) for (const w of waiters) w.reject(error as Error)
      }
    }
    flushing = false
  }

  // The digests of the keys counted lately: each busy key is hashed once, not on every request.
  const digests = new LRUCache<string, string>({ max: 10_000 })
  const digestOf = (key: string) => {
    let digest = digests.get(key)
    if (!digest) {
      digest = createHash('sha256').update(key).digest('hex')
      digests.set(key, digest)
    }
    return digest
  }

  const count = (key: string, timeWindowMs: number) =>
    new Promise<Count>((resolve, reject) => {
      const hashed = digestOf(key)
      const entry = pending.get(hashed) ?? { timeWindowMs, waiters: [] }
      entry.waiters.push({ resolve, reject })
      pending.set(hashed, entry)
      if (!flushing) void flush()
    })

  class DatabaseStore {
    private readonly namespace: string

    /** The plugin constructs the root store with its options; `child` passes a namespace. */
    constructor(namespace: unknown) {
      this.namespace = typeof namespace === 'string' ? namespace : ''
    }

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
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
