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
 *
 * A count sent for a budget of `max` also leases the next LEASE_SHARE of it (decision 0093): the
 * upsert adds those hits too, and this process hands their positions to the key's next requests
 * without a statement, until they run out or the window ends (by this process's clock, counted
 * from before the upsert was sent, so never after the database's end). A lease's positions are
 * counted in the database before they are used, so the processes together never grant more than
 * `max`; a process that stops getting a key's requests leaves at most its lease's rest unused.
 * Budgets under 1/LEASE_SHARE (the sign-in limits) lease nothing and count each request.
 *
 * Kept by decision 0123, the one fast path the list kit's A/B justified: with one upsert per
 * request (the plugin's store interface and nothing more) one principal's concurrent requests
 * queued on their counter's row lock, and one instance listed about an eighth as fast on
 * PostgreSQL (bench/reports/list-kit-ab-2026-12-07.md). On PGlite (one process) the plugin's own
 * in-memory store is used; flood control belongs at the load balancer (docs/deploying.md).
 */
import { createHash } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { LRUCache } from 'lru-cache'
import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import type { Db } from '../db/client'

/** Counts between two deletions of ended windows (a few a minute under the default budgets). */
const PRUNE_EVERY = 1000

/**
 * The share of a budget a count leases (decision 0093): 1 %, so 6 of the default 600 reads a
 * minute; the most two processes can leave unused when one stops getting a key's requests.
 */
const LEASE_SHARE = 0.01

/** What the plugin passes to `child`: a route's options carry the route (`routeInfo`). */
interface ChildOptions {
  routeInfo?: { method?: string | string[]; url?: string }
}

/** The plugin's answer for one counted request: hits in the window so far, ms left in it. */
interface Count {
  current: number
  ttl: number
}

/** The counts of one key waiting for the next upsert, with the hits it leases beyond them. */
interface PendingKey {
  timeWindowMs: number
  lease: number
  waiters: Array<{ resolve: (count: Count) => void; reject: (error: Error) => void }>
}

/** Positions of a key's window counted in the database and not yet handed out. */
interface Lease {
  next: number
  last: number
  /** Date.now() ms at which the window ends, at the latest. */
  endsAt: number
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
      hits: pending.waiters.length + pending.lease,
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

  // Leases of the keys counted lately (a lease evicted is only left unused).
  const leases = new LRUCache<string, Lease>({ max: 10_000 })
  /** The next leased position of `key` as the plugin's count, if one is left in its window. */
  const fromLease = (key: string): Count | undefined => {
    const lease = leases.get(key)
    if (!lease || lease.next > lease.last) return undefined
    const ttl = lease.endsAt - Date.now()
    if (ttl <= 0) return undefined
    return { current: lease.next++, ttl: Math.ceil(ttl) }
  }

  /** Sends the waiting counts, then those that arrived meanwhile, until none wait. */
  const flush = async () => {
    flushing = true
    while (pending.size > 0) {
      const batch = pending
      pending = new Map()
      // Counts that arrived while the upsert bringing their key's lease was on its way.
      for (const [key, { waiters }] of batch) {
        for (let count = fromLease(key); count && waiters.length > 0; count = fromLease(key)) {
          waiters.shift()!.resolve(count)
        }
        if (waiters.length === 0) batch.delete(key)
      }
      if (batch.size === 0) continue
      const sentAt = Date.now()
      try {
        const rows = await upsertCounts(db, batch)
        for (const row of rows) {
          const { waiters, lease } = batch.get(row.key)!
          const last = Number(row.hits)
          const first = last - lease - waiters.length + 1
          const ttl = Math.ceil(Number(row.ttl))
          if (lease > 0) {
            leases.set(row.key, { next: first + waiters.length, last, endsAt: sentAt + ttl })
          }
          waiters.forEach((waiter, i) => waiter.resolve({ current: first + i, ttl }))
        }
        const before = counts
        for (const { waiters, lease } of batch.values()) counts += waiters.length + lease
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

  /** Counts a request of `key` in a window of `timeWindowMs` ms with a budget of `max`. */
  const count = (
    key: string,
    timeWindowMs: number,
    max: number,
    callback: (error: Error | null, result?: Count) => void,
  ) => {
    const hashed = digestOf(key)
    const leased = fromLease(hashed)
    if (leased) return callback(null, leased)
    let entry = pending.get(hashed)
    if (!entry) {
      entry = { timeWindowMs, lease: Math.floor(max * LEASE_SHARE), waiters: [] }
      pending.set(hashed, entry)
    }
    entry.waiters.push({
      resolve: (result) => callback(null, result),
      reject: (error) => callback(error),
    })
    if (!flushing) void flush()
  }

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
      max: number,
    ): void {
      count(`${this.namespace}${key}`, timeWindow, Number.isFinite(max) ? max : 0, callback)
    }

    child(options: ChildOptions): DatabaseStore {
      const route = options.routeInfo
      return new DatabaseStore(route?.url ? `${String(route.method)} ${route.url} ` : '')
    }
  }
  return DatabaseStore as unknown as FastifyRateLimitStoreCtor
}
