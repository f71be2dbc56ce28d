/**
 * A throwaway PostgreSQL 15 server for `npm run test:server` (issue 28): Debian's binaries, a
 * temporary data directory, loopback only, trust authentication (nothing but this machine can
 * reach it, and it lives for one run). As root it runs as the `postgres` user, which PostgreSQL
 * requires. Roles: the superuser `postgres` runs migrations; `lexdesk_login`, a plain LOGIN role
 * (no superuser, no BYPASSRLS, owning nothing), is the application's.
 */
import { execFileSync, spawn } from 'node:child_process'
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { freePort } from '../../server/test/free-port'
import pg from 'pg'

const PG_BIN = '/usr/lib/postgresql/15/bin'

export interface PostgresServer {
  port: number
  /** The URL of `database` as `user` (default: the superuser). */
  url(database: string, user?: string): string
  /** Runs `statement` as the superuser on `database` (default `postgres`). */
  sql(statement: string, database?: string): Promise<void>
  stop(): Promise<void>
}

/** The uid and gid of `postgres` when this process is root (PostgreSQL refuses to run as root). */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }))
  return { uid: id('-u'), gid: id('-g') }
}

/** Runs a PostgreSQL program, as `postgres` when root; throws with its output when it fails. */
function pgProgram(user: ReturnType<typeof runAs>, name: string, args: string[]): void {
  execFileSync(path.join(PG_BIN, name), args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(user ?? {}),
  })
}

/** Where startPostgres keeps its data and how it tunes the server. */
export interface PostgresOptions {
  /**
   * The data directory, kept after `stop` for the next run (the benches' reuse of a loaded
   * corpus); initdb only when it holds no cluster yet. Absent: a temporary one, removed on stop.
   */
  keptData?: string
  /** Server settings (`-c name=value`) beyond the defaults, `shared_buffers` say. */
  settings?: Record<string, string>
}

/** initdb (see `keptData`), then starts the server on 127.0.0.1:`port`. */
export async function startPostgres(
  port: number,
  { keptData, settings = {} }: PostgresOptions = {},
): Promise<PostgresServer> {
  const user = runAs()
  const root = mkdtempSync(path.join(os.tmpdir(), 'lexdesk-pg-'))
  chmodSync(root, 0o700)
  if (user) chownSync(root, user.uid, user.gid)
  const data = keptData ? path.resolve(keptData) : path.join(root, 'data')
  if (keptData && !existsSync(data)) mkdirSync(data, { recursive: true, mode: 0o700 })
  if (keptData && user) chownSync(data, user.uid, user.gid)
  if (!existsSync(path.join(data, 'PG_VERSION')))
    pgProgram(user, 'initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8'])
  const server = spawn(
    path.join(PG_BIN, 'postgres'),
    [
      '-D',
      data,
      '-p',
      String(port),
      '-k',
      root,
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'max_connections=200',
      '-c',
      'fsync=off',
      ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    ],
    { stdio: 'ignore', ...(user ?? {}) },
  )
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()))
  const url = (database: string, role = 'postgres') =>
    `postgres://${role}@127.0.0.1:${port}/${database}`
  const sql = async (statement: string, database = 'postgres') => {
    const client = new pg.Client({ connectionString: url(database) })
    await client.connect()
    try {
      await client.query(statement)
    } finally {
      await client.end()
    }
  }
  for (let attempt = 0; ; attempt++) {
    try {
      await sql('SELECT 1')
      break
    } catch (error) {
      if (attempt > 100 || server.exitCode !== null) throw error
      await new Promise((r) => setTimeout(r, 100))
    }
  }
  return {
    port,
    url,
    sql,
    async stop() {
      server.kill('SIGINT')
      await exited
      rmSync(root, { recursive: true, force: true })
    },
  }
}

/**
 * startPostgres on a free port (with `options`), then Lexdesk's
 * empty database `lexdesk` and the application's role `lexdesk_login`: it logs in, and nothing
 * more (no superuser, no BYPASSRLS, owns nothing); the migrations, run as the superuser, grant it
 * what it uses (decision 0064). A kept cluster that has them already is used as it is.
 */
export async function startLexdeskPostgres(options: PostgresOptions = {}): Promise<PostgresServer> {
  const { keptData } = options
  const fresh = !keptData || !existsSync(path.join(keptData, 'PG_VERSION'))
  const postgres = await startPostgres(await freePort(), options)
  if (fresh) {
    await postgres.sql('CREATE ROLE lexdesk_login LOGIN NOSUPERUSER NOBYPASSRLS')
    await postgres.sql('CREATE DATABASE lexdesk')
  }
  return postgres
}
