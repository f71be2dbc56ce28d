/**
 * Starts the list bench's floor (bench/list-floor-server.ts, decision 0099) as a process of its
 * own, as an instance runs: a bare node:http + node-postgres server sending the instance's
 * transaction for one listing and nothing else.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import type { PgStatement } from '../server/db/pipelined-reads'

/** A started floor server; `stop()` kills it and waits for its exit. */
export interface ListFloor {
  origin: string
  stop(): Promise<void>
}

/** How long the floor may take to print "ready" (a cold tsx start on a loaded machine), ms. */
const READY_TIMEOUT_MS = 60_000

/**
 * Starts a floor on 127.0.0.1:`port` listing with `statement` (the listing's SQL and
 * parameters) over `databaseUrl` (the application's login role). Resolves once it listens;
 * throws with its output when it exits first or prints nothing within READY_TIMEOUT_MS.
 */
export async function startListFloor(options: {
  databaseUrl: string
  port: number
  statement: PgStatement
}): Promise<ListFloor> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL('list-floor-server.ts', import.meta.url))],
    {
      env: {
        ...process.env,
        FLOOR_DATABASE_URL: options.databaseUrl,
        FLOOR_PORT: String(options.port),
        FLOOR_SQL: options.statement.sql,
        FLOOR_PARAMS: JSON.stringify(options.statement.params),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  const exited = once(child, 'exit')
  let output = ''
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the list floor did not start:\n${output}`)),
      READY_TIMEOUT_MS,
    )
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      if (!output.includes('ready')) return
      clearTimeout(timer)
      resolve()
    })
    void exited.then(() => {
      clearTimeout(timer)
      reject(new Error(`the list floor exited:\n${output}`))
    })
  })
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    await exited
  }
  try {
    await ready
  } catch (error) {
    await stop()
    throw error
  }
  return { origin: `http://127.0.0.1:${options.port}`, stop }
}
