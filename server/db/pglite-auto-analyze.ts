/**
 * Planner statistics for embedded PGlite, which has no autovacuum daemon: without them the
 * tenant lists get full scans and hash joins (3-4x slower, decision 7). Every `intervalMs` this
 * flushes the activity counters and ANALYZEs each table changed by more than PostgreSQL's own
 * autovacuum analyze threshold (autovacuum_analyze_threshold 50 + autovacuum_analyze_scale_factor
 * 0.1 × live rows, PostgreSQL docs §24.1.6).
 */
import type { PgliteThread } from './pglite-thread'

/** The calls auto-analyze makes: a PGlite client or the PgliteThread in front of one. */
type Client = Pick<PgliteThread, 'query' | 'exec'>

/** ANALYZEs every table changed past the threshold; returns the tables analysed. */
export async function analyzeChangedTables(client: Client): Promise<string[]> {
  await client.query('select pg_stat_force_next_flush()')
  const { rows } = await client.query<{ name: string }>(
    `select quote_ident(schemaname) || '.' || quote_ident(relname) as name
     from pg_stat_user_tables where n_mod_since_analyze > 50 + 0.1 * n_live_tup`,
  )
  for (const { name } of rows) await client.exec(`ANALYZE ${name}`)
  return rows.map((r) => r.name)
}

/** Runs analyzeChangedTables now and every `intervalMs`; returns the function that stops it. */
export async function startAutoAnalyze(client: Client, intervalMs = 10_000): Promise<() => void> {
  await client.exec('ANALYZE')
  const timer = setInterval(() => void analyzeChangedTables(client).catch(() => []), intervalMs)
  timer.unref()
  return () => clearInterval(timer)
}
