/**
 * One SQL runner sandbox (decision 0091): a worker thread (sql-sandbox-worker.mjs) holding a
 * private in-memory PGlite, into which SqlSandboxes loads one organisation's rows of the sql_*
 * views. The runner's query runs there, and `within` stops it at its time cap by terminating the
 * thread: PGlite cannot interrupt a statement, but a terminated thread's WASM engine stops
 * mid-statement (measured: a quadratic string_agg over 12,000 rows stopped ~0.2 s after
 * terminate(), decision 0091). A sandbox whose thread ended answers every later call with an error.
 *
 * Its memory is capped (decision 0108): the PGlite's WASM memory at `maxMemoryBytes` (past it
 * PostgreSQL's allocation fails with `out of memory`, 53200), the thread's JavaScript heap at
 * `maxHeapMb` (past it Node ends the thread: SandboxOutOfMemory).
 */
import { Worker } from 'node:worker_threads'
import { DRIZZLE_TEXT_TYPES } from '../../db/pglite-thread'
import { threadResourceLimits } from '../../workers/thread-limits'

/** A statement's answer, rows as arrays (`rowMode: 'array'`) or objects. */
export interface SandboxResult {
  rows: unknown[]
  fields: { name: string; dataTypeID: number }[]
}

/**
 * Thrown by every call once the thread ran out of its JavaScript heap (`maxHeapMb`: a query's
 * answer too large to hold) and Node ended it; the sandbox is closed.
 */
export class SandboxOutOfMemory extends Error {
  constructor() {
    super("The SQL sandbox's thread ran out of memory and was ended")
  }
}

/** How much memory one sandbox may take (decision 0108). */
export interface SandboxLimits {
  /** The most bytes the PGlite's WASM memory may grow to (it never shrinks while the thread lives). */
  maxMemoryBytes: number
  /** The most megabytes of the thread's JavaScript heap (V8's old generation). */
  maxHeapMb: number
}

/** Thrown by `within` when the time cap passed and the thread was terminated. */
export class SandboxTimeout extends Error {
  constructor(readonly capMs: number) {
    super(`The sandbox's query ran longer than ${capMs} ms and its thread was terminated`)
  }
}

type Reply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: { message: string } & Record<string, unknown> }

const WORKER_FILE = new URL('./sql-sandbox-worker.mjs', import.meta.url)

export class SqlSandbox {
  private readonly pending = new Map<
    number,
    { resolve(v: unknown): void; reject(e: Error): void }
  >()
  private nextId = 1
  private ended: Error | undefined

  private constructor(private readonly worker: Worker) {
    worker.on('message', (reply: Reply) => {
      const call = this.pending.get(reply.id)
      if (!call) return
      this.pending.delete(reply.id)
      if (reply.ok) call.resolve(reply.value)
      else call.reject(Object.assign(new Error(reply.error.message), reply.error))
    })
    const end = (error: Error) => {
      this.ended ??= error
      for (const call of this.pending.values()) call.reject(this.ended)
      this.pending.clear()
    }
    worker.on('error', (error: Error & { code?: string }) =>
      end(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new SandboxOutOfMemory() : error),
    )
    worker.on('exit', (code) => end(new Error(`The SQL sandbox's thread ended (code ${code})`)))
  }

  /**
   * Starts a sandbox thread with an empty PGlite: from `template` (an empty PGlite's `dump`,
   * ~2.4 s) or by initdb (7–28 s on this shared 2-core machine under load). Rejects when PGlite
   * cannot start. `limits`: its memory caps; none when absent (the template's initdb).
   */
  static async open(template?: Blob, limits?: SandboxLimits): Promise<SqlSandbox> {
    const worker = new Worker(WORKER_FILE, {
      workerData: {
        template,
        textTypes: DRIZZLE_TEXT_TYPES,
        maxMemoryBytes: limits?.maxMemoryBytes,
      },
      resourceLimits: limits ? threadResourceLimits(limits.maxHeapMb) : undefined,
    })
    await new Promise<void>((resolve, reject) => {
      worker.once('message', () => {
        worker.off('error', reject)
        resolve()
      })
      worker.once('error', reject)
    })
    return new SqlSandbox(worker)
  }

  /** Whether the thread ended (terminated at a time cap, or failed): the sandbox is unusable. */
  get closed(): boolean {
    return this.ended !== undefined
  }

  private call<T>(message: Record<string, unknown>): Promise<T> {
    if (this.ended) return Promise.reject(this.ended)
    const id = this.nextId++
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject })
      this.worker.postMessage({ ...message, id })
    })
  }

  /**
   * Runs one statement with `$n` parameters; PostgreSQL's errors keep their `code`. With
   * `maxResultChars`, an answer whose cells hold more characters in all is refused in the thread
   * (an error with code 54000 and `resultTooLarge: true`), never copied here.
   */
  query(
    sql: string,
    params: unknown[] = [],
    rowMode?: 'array',
    maxResultChars?: number,
  ): Promise<SandboxResult> {
    return this.call({ op: 'query', sql, params, rowMode, maxResultChars })
  }

  /** Runs statements without parameters. */
  async exec(sql: string): Promise<void> {
    await this.call({ op: 'exec', sql })
  }

  /** The bytes of the PGlite's WASM memory now (0 when the sandbox was opened without limits). */
  memoryBytes(): Promise<number> {
    return this.call({ op: 'memory' })
  }

  /** The data directory as an uncompressed tarball (to open later sandboxes from). */
  dump(): Promise<Blob> {
    return this.call({ op: 'dump' })
  }

  /**
   * Runs `work` and answers its result, unless `capMs` milliseconds pass first: then the thread
   * is terminated (so the statement it runs stops) and SandboxTimeout is thrown; the sandbox is
   * closed from then on.
   */
  async within<T>(capMs: number, work: (sandbox: SqlSandbox) => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined
    const cap = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        this.ended ??= new SandboxTimeout(capMs)
        void this.worker.terminate().finally(() => reject(new SandboxTimeout(capMs)))
      }, capMs)
    })
    const running = work(this)
    running.catch(() => {}) // its rejection after a timeout is the thread's end: reported by cap
    try {
      return await Promise.race([running, cap])
    } finally {
      clearTimeout(timer)
    }
  }

  /** Stops the thread (and its PGlite) at once. */
  async terminate(): Promise<void> {
    this.ended ??= new Error('The SQL sandbox was closed')
    await this.worker.terminate()
  }
}
