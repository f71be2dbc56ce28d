/**
 * Planner statistics for embedded PGlite, which has no autovacuum daemon: without them the
 * tenant lists get full scans and hash joins (3-4x slower, decision 7). Every `intervalMs` this
 * flushes the activity counters and ANALYZEs each table changed by more than PostgreSQL's own
 * autovacuum analyze threshold (autovacuum_analyze_threshold 50 + autovacuum_analyze_scale_factor
 * 0.1 × live rows, PostgreSQL docs §24.1.6).
 *
 * ANALYZE holds PGlite's one connection while it samples 300 × default_statistics_target rows
 * (PostgreSQL docs, "ANALYZE": 30,000 at the default 100), about half a second on a table of a few
 * hundred thousand rows, which every request of every organisation waits behind (decision 35).
 * A table past LARGE_TABLE_ROWS live rows is therefore sampled at a statistics target of
 * LARGE_TABLE_STATISTICS_TARGET (3,000 rows, a tenth of the time): the tenant lists' plans were
 * checked to stay the same (decision 35). The threshold was 100,000 until the noisy-neighbour
 * bench's slowest /readyz polls (520, 480, 380 ms) fell on the 10-second ticks at which a
 * table growing from 40,000 to 100,000 rows was analysed with the full 30,000-row sample.
 */
import type { PgliteThread } from './pglite-thread'

/** The calls auto-analyze makes: a PGlite client or the PgliteThread in front of one. */
type Client = Pick<PgliteThread, 'query' | 'exec'>

/**
 * Live rows from which a table is analysed with the smaller sample: below it the full target
 * samples at most this many rows (the whole table), about a tenth of a second.
 */
export const LARGE_TABLE_ROWS = 10_000

/** default_statistics_target used for a large table: 10 histogram buckets and MCVs, 3,000 rows. */
export const LARGE_TABLE_STATISTICS_TARGET = 10

/**
 * ANALYZEs every table changed past the threshold; returns the tables analysed. A table of more
 * than `largeTableRows` live rows gets the smaller sample; the SET lives in the same implicit
 * transaction as the ANALYZE, so a failed ANALYZE rolls it back with it.
 */
export async function analyzeChangedTables(
  client: Client,
  largeTableRows = LARGE_TABLE_ROWS,
): Promise<string[]> {
  await client.query('select pg_stat_force_next_flush()')
  const { rows } = await client.query<{ name: string; live: number }>(
    `select quote_ident(schemaname) || '.' || quote_ident(relname) as name, n_live_tup::float8 as live
     from pg_stat_user_tables where n_mod_since_analyze > 50 + 0.1 * n_live_tup`,
  )
  for (const { name, live } of rows) {
    await client.exec(
      live > largeTableRows
        ? `SET default_statistics_target = ${LARGE_TABLE_STATISTICS_TARGET}; ANALYZE ${name}; RESET default_statistics_target`
        : `ANALYZE ${name}`,
    )
  }
  return rows.map((r) => r.name)
}

/** Runs analyzeChangedTables now and every `intervalMs`; returns the function that stops it. */
export async function startAutoAnalyze(client: Client, intervalMs = 10_000): Promise<() => void> {
  await client.exec('ANALYZE')
  const timer = setInterval(() => void analyzeChangedTables(client).catch(() => []), intervalMs)
  timer.unref()
  return () => clearInterval(timer)
}
