/**
 * The server a load benchmark measures: the real server as a child process
 * (server/test/child-server.ts: `LOG_LEVEL=warn`, `NODE_ENV=test`) on a fresh data dir and a free
 * port, with the per-principal API rate limits lifted (decision 0040). These benchmarks measure
 * contention and throughput, and their back-to-back loops would otherwise be timed as fast 429s.
 * `npm run bench -- --only NAME --cpu-prof DIR` makes the server write a V8 CPU profile of its
 * whole run into DIR when it stops (open it in Chrome DevTools or speedscope).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { startChildServer, type ChildServer } from '../server/test/child-server'
import { freePort } from '../server/test/free-port'

/** A started benchmark server; `close()` stops it and removes its data dir. */
export interface BenchServer extends ChildServer {
  close(): Promise<void>
}

/** Far above any loop of a benchmark: per minute, so 1,000,000 is about 16,000 a second. */
const LIFTED = '1000000'

/** `--cpu-prof DIR` of the benchmark's command line as node options for the server. */
function profileArgs(): string[] {
  const flag = process.argv.indexOf('--cpu-prof')
  const dir = flag >= 0 ? process.argv[flag + 1] : undefined
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(dir)}`] : []
}

/**
 * Starts the server for the benchmark `name` (which names its data dir) with the API limits
 * lifted plus `env`; waits up to 120 s for it to be ready (a cold tsx start on a loaded machine).
 * Throws as startChildServer does, after removing the data dir.
 */
export async function startBenchServer(
  name: string,
  env: Record<string, string> = {},
): Promise<BenchServer> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `lexdesk-bench-${name}-`))
  const removeDataDir = () => rm(dataDir, { recursive: true, force: true })
  try {
    const server = await startChildServer({
      dataDir,
      port: await freePort(),
      readyTimeoutMs: 120_000,
      nodeArgs: profileArgs(),
      env: {
        API_READS_PER_MINUTE: LIFTED,
        API_WRITES_PER_MINUTE: LIFTED,
        API_KEY_REQUESTS_PER_MINUTE: LIFTED,
        ...env,
      },
    })
    return {
      ...server,
      async close() {
        await server.stop('SIGTERM')
        await removeDataDir()
      },
    }
  } catch (error) {
    await removeDataDir()
    throw error
  }
}
