/**
 * Database connection: embedded PGlite (real PostgreSQL in WASM, with pgvector, on its own thread:
 * pglite-thread.ts) under `<dataDir>/pglite` when no DATABASE_URL is set, node-postgres otherwise. Same Drizzle schema
 * and queries on both. Migrations run programmatically (drizzle-kit's pglite migrate fails
 * silently, see STACK-NOTES.md).
 */
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { PGlite } from '@electric-sql/pglite'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import type { Logger as DrizzleLogger } from 'drizzle-orm/logger'
import pg from 'pg'
import { startAutoAnalyze } from './pglite-auto-analyze'
import { PgliteThread } from './pglite-thread'
import { migratePostgres } from './migrate-postgres'
import * as schema from './schema'

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>

/** An open database plus the means to close it. */
export interface Database {
  db: Db
  kind: 'pglite' | 'postgres'
  close(): Promise<void>
  /**
   * The connection pool's use now (PostgreSQL's pg.Pool: connections open, idle, and queries
   * waiting for one; at most `max`); absent on PGlite, one connection on its own thread.
   */
  connections?: () => DatabaseConnections
}

/** A snapshot of a connection pool, for the metrics (server/ops/metrics.ts). */
export interface DatabaseConnections {
  total: number
  idle: number
  waiting: number
  max: number
}

/** The part of the application log the database uses. */
export interface StatementLog {
  debug(fields: { sql: string }, message: string): void
}

/**
 * Drizzle's statement logger: each statement's SQL text at debug level, never its bound
 * parameters (they hold document text, titles and tokens). Without a log, nothing is logged.
 */
export function statementLogger(log: StatementLog | undefined): DrizzleLogger | false {
  if (!log) return false
  return { logQuery: (query) => log.debug({ sql: query }, 'sql statement') }
}

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations')

/**
 * Opens PGlite at `dataDir` (a directory, or undefined for in-memory) or loads it from a
 * `loadDataDir` dump (tests), applies pending migrations, and returns the handle.
 */
export async function openPglite(options: {
  dataDir?: string
  loadDataDir?: Blob
  log?: StatementLog
  /** Hears of the database thread stopping unexpectedly (PgliteThread.open). */
  onStopped?: (error: Error) => void
  /**
   * Runs on the opened thread before any extension or migration (the tests' global setup keeps
   * the empty database it finds there, server/test/global-setup.ts).
   */
  beforeMigrating?: (client: PgliteThread) => Promise<void>
}): Promise<Database> {
  const client = await PgliteThread.open(
    { dataDir: options.dataDir, loadDataDir: options.loadDataDir },
    options.onStopped,
  )
  await options.beforeMigrating?.(client)
  await client.exec('CREATE EXTENSION IF NOT EXISTS vector')
  // Drizzle's PGlite driver calls only query and transaction, which PgliteThread provides.
  const db = drizzlePglite({
    client: client as unknown as PGlite,
    schema,
    logger: statementLogger(options.log),
  })
  await migratePglite(db, { migrationsFolder })
  const stopAutoAnalyze = await startAutoAnalyze(client)
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    close: () => {
      stopAutoAnalyze()
      return client.close()
    },
  }
}

/**
 * Applies pending migrations through `migrationUrl` (default `url`; migrate-postgres.ts: under
 * an advisory lock, then granting the application's role what it uses), connects a pg Pool to
 * `url`, and returns the handle.
 */
export async function openPostgres(
  url: string,
  log?: StatementLog,
  migrationUrl: string = url,
): Promise<Database> {
  await migratePostgres(migrationUrl, url)
  // Pipeline mode: a client sends each query when asked, without waiting for the answer before
  // it (node-postgres answers them in order): a transaction's statements share round trips
  // (withTenant's confining statement and the first query; withTenantReads' whole transaction,
  // pipelined-reads.ts, decision 0089).
  const pool = new pg.Pool({ connectionString: url, max: 10, pipeline: true })
  // An idle connection the server ended (a restart, a failover) is dropped by the pool and the
  // next query opens another; without a listener its 'error' event would end the process.
  pool.on('error', () => {})
  const db = drizzlePg(pool, { schema, logger: statementLogger(log) })
  return {
    db: db as unknown as Db,
    kind: 'postgres',
    close: () => pool.end(),
    connections: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      max: pool.options.max ?? 10,
    }),
  }
}

/**
 * Opens the configured database: Postgres when `databaseUrl` is set (migrated through
 * `databaseMigrationUrl` when given), PGlite under dataDir otherwise (`onStopped`: see openPglite).
 */
export function openDatabase(
  config: { databaseUrl?: string; databaseMigrationUrl?: string; dataDir: string },
  log?: StatementLog,
  onStopped?: (error: Error) => void,
): Promise<Database> {
  return config.databaseUrl
    ? openPostgres(config.databaseUrl, log, config.databaseMigrationUrl)
    : openPglite({ dataDir: path.join(config.dataDir, 'pglite'), log, onStopped })
}
