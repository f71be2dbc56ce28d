/**
 * The real server as a child process (`node --import tsx server/main.ts`, or the built JavaScript
 * of scripts/build-server.mjs with `entry`) on a given data dir and
 * port, for tests and benchmarks that need a real socket or a process to kill. Its stdout and
 * stderr are kept in memory so a test can read the console mailer's lines
 * (`Mail to <to>: <link>`, server/mail/mailer.ts) and show the output when something fails.
 */
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export interface ChildServer {
  /** `http://localhost:<port>`: the server's PUBLIC_URL origin, to send as `Origin`. */
  readonly origin: string
  /** The server's process id (to read its memory from /proc). */
  readonly pid: number
  /** Everything the process printed so far (stdout and stderr interleaved). */
  output(): string
  /** Resolves with the first match of `pattern` in the output; rejects after `timeoutMs` or on exit. */
  waitForOutput(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray>
  /** Sends `signal` (if the process still runs) and resolves once it has exited. */
  stop(signal: NodeJS.Signals): Promise<void>
}

const REPOSITORY_ROOT = fileURLToPath(new URL('../../', import.meta.url))

/** Printed by server/main.ts once the server listens. */
const LISTENING = /Lexdesk is running at /

/**
 * Starts the server with `LEXDESK_DATA_DIR=dataDir`, `PORT=port`, `LOG_LEVEL=warn`,
 * `NODE_ENV=test` (plus `env`), and resolves once it listens and /readyz answers 200. Throws,
 * after killing the process, when it exits early or is not ready within `readyTimeoutMs`.
 */
export async function startChildServer(options: {
  dataDir: string
  port: number
  /**
   * Ceiling for the start, not a speed target: default 120 s. A restart after a crash reads
   * WordNet (~25 s at a load average of 30 on two cores) and reconciles files before it listens,
   * and took ~61 s there (crash-recovery.test.ts), past the former 60 s.
   */
  readyTimeoutMs?: number
  env?: Record<string, string>
  /** Node options before the entry point (e.g. `--cpu-prof`, which NODE_OPTIONS refuses). */
  nodeArgs?: readonly string[]
  /**
   * A built main.js (absolute, or relative to the repository) to run as production does, with
   * plain node and source maps; when absent, server/main.ts through tsx.
   */
  entry?: string
}): Promise<ChildServer> {
  const origin = `http://localhost:${options.port}`
  const entryArgs = options.entry
    ? ['--enable-source-maps', options.entry]
    : ['--import', 'tsx', 'server/main.ts']
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...entryArgs], {
    cwd: REPOSITORY_ROOT,
    env: {
      ...process.env,
      PORT: String(options.port),
      LEXDESK_DATA_DIR: options.dataDir,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const onData = (chunk: Buffer) => {
    output += chunk.toString('utf8')
  }
  child.stdout.on('data', onData)
  child.stderr.on('data', onData)
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))

  const waitForOutput = (pattern: RegExp, timeoutMs: number) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(output)
        if (!match) return false
        finish()
        resolve(match)
        return true
      }
      const onExit = () => {
        if (check()) return
        finish()
        reject(new Error(`The server exited before printing ${pattern}. Output:\n${output}`))
      }
      const timer = setTimeout(() => {
        finish()
        reject(new Error(`No ${pattern} in the server output after ${timeoutMs} ms:\n${output}`))
      }, timeoutMs)
      const finish = () => {
        clearTimeout(timer)
        child.stdout.off('data', check)
        child.stderr.off('data', check)
        child.off('exit', onExit)
      }
      if (check()) return
      if (child.exitCode !== null || child.signalCode !== null) return onExit()
      // Listeners added after onData, so `output` already holds the new chunk when they run.
      child.stdout.on('data', check)
      child.stderr.on('data', check)
      child.once('exit', onExit)
    })

  const server: ChildServer = {
    origin,
    pid: child.pid ?? 0,
    output: () => output,
    waitForOutput,
    async stop(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
      await exited
    },
  }
  try {
    await waitForOutput(LISTENING, options.readyTimeoutMs ?? 120_000)
    const ready = await fetch(`${origin}/readyz`)
    if (!ready.ok) throw new Error(`/readyz answered ${ready.status}. Output:\n${output}`)
  } catch (error) {
    await server.stop('SIGKILL')
    throw error
  }
  return server
}
