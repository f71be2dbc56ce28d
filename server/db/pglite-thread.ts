/**
 * Embedded PGlite on its own worker thread (decision 32). PGlite is PostgreSQL compiled to WASM
 * and runs wherever it is called: on the main thread every statement's parse, plan, execution and
 * row copy held the HTTP server's event loop, so a long statement froze every request and the
 * database's CPU could never use the second core. `PgliteThread` starts pglite-thread-worker.mjs
 * and offers the part of PGlite's client that Drizzle's `drizzle-orm/pglite` driver and Lexdesk
 * call (`query`, `exec`, `transaction`), each call a message to that thread.
 *
 * Semantics are PGlite's: one statement or transaction at a time, in order of arrival; a
 * transaction holds the database until its callback settles (COMMIT when it resolves, ROLLBACK
 * when it throws). Errors keep PostgreSQL's fields (`code`, `constraint`, `detail`, …), which
 * structured cloning alone would drop. Per-query `parsers` cannot cross threads: the worker keeps
 * Drizzle's text types as its defaults, and a query asking for other parsers is refused.
 */
import { Worker } from 'node:worker_threads'
import type { Results } from '@electric-sql/pglite'

/** Query options PgliteThread honours (Drizzle also sends `parsers`; see the module docs). */
export interface ThreadQueryOptions {
  rowMode?: 'array' | 'object'
  parsers?: Record<number, unknown>
}

/** What a transaction callback receives: the same calls, confined to the transaction. */
export interface ThreadTransaction {
  query<T>(sql: string, params?: unknown[], options?: ThreadQueryOptions): Promise<Results<T>>
  exec(sql: string): Promise<Results[]>
  /** Ends the transaction with ROLLBACK now; later calls on it fail. */
  rollback(): Promise<void>
  readonly closed: boolean
}

/** One statement of PgliteThread.batch. */
export interface ThreadStatement {
  sql: string
  params?: unknown[]
  options?: ThreadQueryOptions
}

/** What a background batch did (PgliteThread.background). */
export interface BackgroundRun {
  /** One Results per statement run, in order: all of them, or the first ones when it stopped. */
  results: Results[]
  /**
   * How long its transaction held the database, in ms, timed on the database thread from taking
   * PGlite's lock to COMMIT: the wait in the lane and in PGlite's queue is not counted.
   */
  heldMs: number
  /** Whether other calls waited for it: it stopped early for them, or they arrived as it ended. */
  contended: boolean
}

/**
 * The types Drizzle reads as text (timestamp, timestamptz, interval, date, and the arrays of
 * numeric, timestamp, timestamptz, interval and date; drizzle-orm/pglite/session.js). Drizzle
 * sends parsers for them with every query; functions cannot cross threads, so the worker installs
 * these as its instance's defaults instead (sent as workerData.textTypes).
 */
export const DRIZZLE_TEXT_TYPES = [1114, 1184, 1186, 1082, 1231, 1115, 1185, 1187, 1182]
const WORKER_TEXT_TYPES = new Set(DRIZZLE_TEXT_TYPES.map(String))

type Reply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: ErrorFields }
  | { notification: { channel: string; payload: string } }
type ErrorFields = { message: string; name?: string } & Record<string, unknown>

/** A worker's error as an Error carrying PostgreSQL's fields, thrown in the caller's stack. */
function toError(fields: ErrorFields): Error {
  const { message, name, ...rest } = fields
  const error = Object.assign(new Error(message), rest)
  if (name) error.name = name
  return error
}

/** Throws unless `options.parsers` only repeats the worker's defaults. */
function checkParsers(options: ThreadQueryOptions | undefined): void {
  for (const oid of Object.keys(options?.parsers ?? {})) {
    if (!WORKER_TEXT_TYPES.has(oid))
      throw new Error(
        `PgliteThread: a parser for type ${oid} cannot be sent to the database thread`,
      )
  }
}

/** Statements as the worker takes them, refusing per-query parsers (see checkParsers). */
function toMessage(statements: ThreadStatement[]) {
  for (const statement of statements) checkParsers(statement.options)
  return statements.map(({ sql, params = [], options }) => ({
    sql,
    params,
    rowMode: options?.rowMode,
  }))
}

const WORKER_FILE = new URL('./pglite-thread-worker.mjs', import.meta.url)

/**
 * How long a background batch waits for foreground work at most before it queues like any call
 * (ms): long against a request (tens of ms), short against indexing (minutes), decision 0082.
 */
const BACKGROUND_MAX_WAIT_MS = 1_000

export class PgliteThread {
  private readonly pending = new Map<
    number,
    { resolve(v: unknown): void; reject(e: Error): void }
  >()
  private nextId = 1
  private nextTransaction = 1
  private exited: Error | undefined
  private closing = false
  private readonly listeners = new Map<string, Set<(payload: string) => void>>()

  private constructor(
    private readonly worker: Worker,
    onStopped: (error: Error) => void,
  ) {
    worker.on('message', (reply: Reply) => {
      if ('notification' in reply) {
        const { channel, payload } = reply.notification
        for (const listener of this.listeners.get(channel) ?? []) listener(payload)
        return
      }
      const call = this.pending.get(reply.id)
      if (!call) return
      this.pending.delete(reply.id)
      if (reply.ok) call.resolve(reply.value)
      else call.reject(toError(reply.error))
    })
    const fail = (error: Error) => {
      if (this.exited) return
      this.exited = error
      for (const call of this.pending.values()) call.reject(error)
      this.pending.clear()
      if (!this.closing) onStopped(error)
    }
    worker.on('error', fail)
    worker.on('exit', (code) => fail(new Error(`The database thread stopped (exit code ${code})`)))
  }

  /**
   * Starts the thread and opens PGlite at `dataDir` (a directory; undefined = in memory) or from
   * a `loadDataDir` tarball. Rejects with PGlite's error when the database cannot be opened.
   * `onStopped` hears of a thread that stopped other than by `close` (a crash of the WASM
   * engine, say): every call then rejects, so the process should end and be restarted.
   */
  static async open(
    options: { dataDir?: string; loadDataDir?: Blob },
    onStopped: (error: Error) => void = () => {},
  ): Promise<PgliteThread> {
    const worker = new Worker(WORKER_FILE, {
      workerData: {
        ...options,
        backgroundMaxWaitMs: BACKGROUND_MAX_WAIT_MS,
        textTypes: DRIZZLE_TEXT_TYPES,
      },
    })
    await new Promise<void>((resolve, reject) => {
      const onMessage = (message: { ready?: boolean }) => {
        if (!message.ready) return
        worker.off('error', reject)
        worker.off('message', onMessage)
        resolve()
      }
      worker.on('message', onMessage)
      worker.once('error', reject)
    })
    return new PgliteThread(worker, onStopped)
  }

  private call<T>(message: Record<string, unknown>): Promise<T> {
    if (this.exited) return Promise.reject(this.exited)
    const id = this.nextId++
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject })
      this.worker.postMessage({ ...message, id })
    })
  }

  /** Runs one statement with `$n` parameters; `rowMode` 'array' gives rows as arrays. */
  query<T>(sql: string, params: unknown[] = [], options?: ThreadQueryOptions): Promise<Results<T>> {
    checkParsers(options)
    return this.call({ op: 'query', sql, params, rowMode: options?.rowMode })
  }

  /** Runs one or more statements without parameters; one Results per statement. */
  exec(sql: string): Promise<Results[]> {
    return this.call({ op: 'exec', sql })
  }

  /**
   * Runs `statements` in order in one transaction of their own, all on the database thread: one
   * message, so the transaction holds the database only for their own work (decision 32).
   * Rejects with the first failing statement's error, after ROLLBACK.
   */
  batch(statements: ThreadStatement[]): Promise<Results[]> {
    return this.call({ op: 'batch', statements: toMessage(statements) })
  }

  /**
   * Runs `statements` as batch does, as work nobody waits on, in the database thread's background
   * lane (decision 0082): it starts only when no other call is being run and no transaction is
   * open (or after waiting BACKGROUND_MAX_WAIT_MS), and once its first `mayStopAfter` statements
   * (default: all) have run it stops before any further one when another call arrives, committing
   * those that ran, so that call waits for one statement of it at most. Resolves with what ran.
   */
  background(
    statements: ThreadStatement[],
    options: { mayStopAfter?: number } = {},
  ): Promise<BackgroundRun> {
    return this.call({
      op: 'background',
      statements: toMessage(statements),
      mayStopAfter: options.mayStopAfter ?? statements.length,
    })
  }

  /** Runs `callback` in a transaction: COMMIT when it resolves, ROLLBACK when it throws. */
  async transaction<T>(callback: (tx: ThreadTransaction) => Promise<T>): Promise<T> {
    // The callback's statements follow BEGIN without waiting for its answer (the thread queues
    // them); a failed BEGIN fails them too, and the callback's error is the one reported.
    const tx = this.nextTransaction++
    this.call({ op: 'begin', tx }).catch(() => {})
    let closed = false
    const open = () => {
      if (closed) throw new Error('Transaction is closed')
    }
    const handle: ThreadTransaction = {
      query: async (sql, params = [], options) => {
        open()
        checkParsers(options)
        return this.call({ op: 'query', sql, params, rowMode: options?.rowMode, tx })
      },
      exec: async (sql) => {
        open()
        return this.call({ op: 'exec', sql, tx })
      },
      rollback: async () => {
        open()
        closed = true
        await this.call({ op: 'end', tx, commit: false })
      },
      get closed() {
        return closed
      },
    }
    let result: T
    try {
      result = await callback(handle)
    } catch (error) {
      if (!closed) {
        closed = true
        await this.call({ op: 'end', tx, commit: false }).catch(() => {})
      }
      throw error
    }
    if (!closed) {
      closed = true
      await this.call({ op: 'end', tx, commit: true })
    }
    return result
  }

  /**
   * Calls `listener` with the payload of each NOTIFY on `channel` (a lower-case SQL identifier)
   * made on this database, from the moment the returned promise resolves (PGlite's own `listen`,
   * run on the database thread; notifications are delivered as their transactions commit).
   * Resolves with the function that stops listening.
   */
  async listen(channel: string, listener: (payload: string) => void): Promise<() => Promise<void>> {
    let set = this.listeners.get(channel)
    if (!set) {
      set = new Set()
      this.listeners.set(channel, set)
      await this.call({ op: 'listen', channel })
    }
    set.add(listener)
    return async () => {
      if (!set.delete(listener) || set.size > 0) return
      this.listeners.delete(channel)
      await this.call({ op: 'unlisten', channel }).catch(() => {})
    }
  }

  /**
   * The data directory as an uncompressed tarball (PGlite's dumpDataDir), for test templates:
   * ~43 MB where gzip made ~5 MB, but a copy loads without gunzip (~0.4 s less CPU per copy).
   */
  dumpDataDir(): Promise<Blob> {
    return this.call({ op: 'dump' })
  }

  /** Closes PGlite and stops the thread. */
  async close(): Promise<void> {
    if (this.exited) return
    this.closing = true
    await this.call({ op: 'close' })
    await this.worker.terminate()
  }
}
