/**
 * The SQL runner's sandboxes on embedded PGlite (decision 0091). PGlite cannot interrupt a
 * statement, and some queries cost far more than the planner says (per-row work over one value an
 * aggregate built from a whole view), so the runner's query never runs on the shared database
 * thread: it runs in a SqlSandbox, a worker thread with a private in-memory PGlite holding only
 * the organisation's rows of the sql_* views (as plain tables of the same names and column types),
 * which the time cap stops by terminating the thread.
 *
 * - Loading reads the views through the runner's own tenant path (role `lexdesk_sql`, the
 *   organisation's RLS: sql-runner-role.ts) in pages of SANDBOX_PAGE_ROWS rows and at most
 *   SANDBOX_PAGE_BYTES, one transaction each, so the shared thread serves other requests between
 *   pages. No other organisation's row, no auth table, no hidden column is ever in a sandbox.
 * - A loaded sandbox serves the organisation's next queries while its data version (the count and
 *   newest row version, `xmin`, of each table behind the views, read under RLS) is unchanged; any
 *   insert, update or delete changes it, and the sandbox is loaded afresh.
 * - One sandbox per organisation, its queries one at a time; at most `maxSandboxes` at once (each
 *   holds a PGlite, ~0.5 GB of memory), the least recently used idle one dropped for a new one;
 *   each dropped after `idleMs` unused, and after a query that hit the time cap or its memory cap.
 * - A person uses at most `maxPerPerson` sandboxes at once, whatever organisations they belong
 *   to (decision 0108): one person with two organisations cannot keep both sandboxes busy.
 * - Each sandbox's memory is capped (SANDBOX_LIMITS, decision 0108), and rows are loaded in pages
 *   of at most SANDBOX_PAGE_BYTES, so loading stays well inside the cap.
 * - An organisation with more than SANDBOX_MAX_ROWS rows (or SANDBOX_MAX_BYTES of them) is
 *   refused (422 `sql_too_large`, naming the number): server mode with PostgreSQL has no limit.
 */
import { readFile, rename, writeFile } from 'node:fs/promises'
import { sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { withTenant, type Tx } from '../../db/tenant'
import { AppError } from '../../errors/app-error'
import { SandboxOutOfMemory, SandboxTimeout, SqlSandbox, type SandboxLimits } from './sql-sandbox'
import { enterSqlRunner } from './sql-runner-role'
import { SQL_VIEWS } from './sql-views'

/**
 * Most rows an organisation's views may hold to be loaded. A PGlite in memory took ~0.5 GB before
 * any row; 200,000 rows of the views' width stay within about as much again (decision 0091).
 */
export const SANDBOX_MAX_ROWS = 200_000

/** Most bytes (as JSON) of those rows. */
export const SANDBOX_MAX_BYTES = 256 * 1024 ** 2

/** Rows read from the shared database per transaction while loading. */
export const SANDBOX_PAGE_ROWS = 2_000

/**
 * Most bytes (as JSON) of one page, bar its first row: inserting a page of JSON grows the
 * sandbox's WASM memory by ~10 times its size (measured, decision 0108: a 16 MB page from 189 to
 * 326 MB, a 63 MB one to 852 MB, a 256 MB one failed at 2 GB), so a page of 2,000 rows of large
 * entity data (up to 256 KB each) would not fit under SANDBOX_LIMITS.
 */
export const SANDBOX_PAGE_BYTES = 8 * 1024 ** 2

/**
 * One sandbox's memory caps (decision 0108). WASM: a PGlite opened from the template takes
 * 189 MB and a loaded page of SANDBOX_PAGE_BYTES adds ~70 MB; 512 MB leaves ~250 MB for a query's
 * work, while `replace` over a `string_agg` of 1,200 names took it to 1.2 GB uncapped (PGlite's
 * own maximum is 2 GB). Heap: the thread's JavaScript holds the answer of a query (at most
 * SANDBOX_MAX_RESULT_CHARS characters, ~2 bytes each) and a page while loading.
 */
export const SANDBOX_LIMITS: SandboxLimits = { maxMemoryBytes: 512 * 1024 ** 2, maxHeapMb: 256 }

/**
 * Most characters of a query's answer (its cells, in all) the sandbox hands to the main thread:
 * 1,000 rows of 64 KB each, far more than the web page shows, a fraction of the heap cap.
 */
export const SANDBOX_MAX_RESULT_CHARS = 64 * 1024 ** 2

const SERVER_MODE =
  'Run Lexdesk in server mode (DATABASE_URL set to a PostgreSQL server) to query it without this limit.'

interface Column {
  name: string
  type: string
}

/** What the application's database says of the views. */
interface Catalog {
  columns: Map<string, Column[]>
  /** The tables the views read (a change to any changes a view). */
  tables: string[]
}

const VIEW_NAMES = `{${SQL_VIEWS.join(',')}}`

interface Entry {
  sandbox?: SqlSandbox
  version?: string
  /** The organisation's calls, one after another. */
  queue: Promise<unknown>
  /** Calls waiting or running. */
  active: number
  idle?: NodeJS.Timeout
}

/** One page of a view's rows as `load` reads them (readPage). */
interface Page {
  /** The rows as one JSON array; null when there are none. */
  json: string | null
  n: number
  /** The id of the last row, as text. */
  last: string | null
  /** Whether rows may follow (the page was full, or cut at SANDBOX_PAGE_BYTES). */
  more: boolean
}

/** Whose query a sandbox runs: the organisation, and the person (or credential) asking. */
export interface SandboxCaller {
  orgId: string
  /** The person (a user's id, else the credential's): sandboxes are shared fairly between them. */
  person: string
}

/** SQLSTATEs of running out of memory: out_of_memory, program_limit_exceeded (a 1 GB value). */
const MEMORY_STATES = new Set(['53200', '54000'])

/**
 * Whether `error` means the query ran out of its sandbox's memory: the thread's heap (Node ended
 * it), or PostgreSQL's allocation past the WASM cap (53200) or its own 1 GB limit of a value
 * (54000). An answer refused for its size (`resultTooLarge`) took no memory of the engine's.
 */
export function isOutOfMemory(error: unknown): boolean {
  if (error instanceof SandboxOutOfMemory) return true
  const { code, resultTooLarge } = (error ?? {}) as { code?: unknown; resultTooLarge?: unknown }
  return typeof code === 'string' && MEMORY_STATES.has(code) && resultTooLarge !== true
}

export interface SqlSandboxesOptions {
  /** Most sandboxes at once (default 2). */
  maxSandboxes?: number
  /** Milliseconds a sandbox stays loaded unused (default 5 minutes). */
  idleMs?: number
  /** Most rows an organisation may have to be loaded (default SANDBOX_MAX_ROWS). */
  maxRows?: number
  /** Most sandboxes one person uses at once, across organisations (default 1). */
  maxPerPerson?: number
  /** Each sandbox's memory caps (default SANDBOX_LIMITS). */
  limits?: SandboxLimits
  /** Where the empty PGlite's dump is kept across restarts (prepare); in memory only when absent. */
  templateFile?: string
}

/** Retry-After for a refusal while sandboxes run: a running query ends within its time cap. */
function retryAfter(capMs: number): Record<string, string> {
  return { 'retry-after': String(Math.ceil(capMs / 1000)) }
}

function quote(name: string): string {
  return `"${name.replaceAll('"', '""')}"`
}

/** The sandboxes of one application's embedded database. */
export class SqlSandboxes {
  private readonly entries = new Map<string, Entry>()
  /** Per person, the organisations whose sandboxes run or queue their calls, with how many. */
  private readonly persons = new Map<string, Map<string, number>>()
  private template: Promise<Blob> | undefined
  private readonly templateFile: string | undefined
  /** The sandbox running initdb for the template, if any (closed with the others). */
  private preparing: SqlSandbox | undefined
  private catalog: Promise<Catalog> | undefined
  private readonly maxSandboxes: number
  private readonly idleMs: number
  private readonly maxRows: number
  private readonly maxPerPerson: number
  private readonly limits: SandboxLimits

  constructor(
    private readonly db: Db,
    options: SqlSandboxesOptions = {},
  ) {
    this.maxSandboxes = options.maxSandboxes ?? 2
    this.idleMs = options.idleMs ?? 5 * 60_000
    this.maxRows = options.maxRows ?? SANDBOX_MAX_ROWS
    this.maxPerPerson = options.maxPerPerson ?? 1
    this.limits = options.limits ?? SANDBOX_LIMITS
    this.templateFile = options.templateFile
  }

  /**
   * Runs `work` on the caller's organisation's sandbox (loaded or refreshed first) within `capMs`
   * milliseconds.
   * @throws SandboxTimeout when the cap passed (the sandbox is dropped); SandboxOutOfMemory or
   *   PostgreSQL's 53200/54000 (isOutOfMemory) when the query ran out of the sandbox's
   *   memory (the sandbox is dropped, so its memory is returned); AppError `sql_too_large` (422)
   *   when the organisation's rows are too many to load; `sql_busy` (503, Retry-After) when every
   *   sandbox is in use by other organisations or the person already uses `maxPerPerson`
   *   sandboxes of other organisations; and whatever `work` throws
   */
  async run<T>(
    { orgId, person }: SandboxCaller,
    capMs: number,
    work: (sandbox: SqlSandbox) => Promise<T>,
  ): Promise<T> {
    this.refusePersonOverShare(orgId, person, capMs)
    let entry = this.entries.get(orgId)
    if (!entry) {
      this.makeRoom(capMs)
      entry = { queue: Promise.resolve(), active: 0 }
      this.entries.set(orgId, entry)
    }
    const own = entry
    own.active++
    this.hold(person, orgId, +1)
    clearTimeout(own.idle)
    const turn = own.queue.then(async () => {
      try {
        const sandbox = await this.ready(orgId, own)
        return await sandbox.within(capMs, work)
      } catch (error) {
        // Stopped at the cap, out of memory (its WASM memory never shrinks: only ending the thread
        // returns it) or failed: a new sandbox serves the next query.
        if (error instanceof SandboxTimeout || isOutOfMemory(error) || own.sandbox?.closed) {
          await this.drop(orgId, own)
        }
        throw error
      } finally {
        this.hold(person, orgId, -1)
        own.active--
        if (own.active === 0 && this.entries.get(orgId) === own) {
          own.idle = setTimeout(() => void this.drop(orgId, own), this.idleMs)
          own.idle.unref()
        }
      }
    })
    own.queue = turn.catch(() => {})
    return turn
  }

  /** Stops every sandbox. */
  async close(): Promise<void> {
    await this.preparing?.terminate()
    await Promise.all([...this.entries].map(([orgId, entry]) => this.drop(orgId, entry)))
  }

  /**
   * Refuses a person who already uses `maxPerPerson` sandboxes of other organisations than
   * `orgId` (another query of theirs in `orgId` waits its turn in that organisation's sandbox).
   */
  private refusePersonOverShare(orgId: string, person: string, capMs: number): void {
    const held = this.persons.get(person)
    const elsewhere = held ? [...held.keys()].filter((org) => org !== orgId).length : 0
    if (elsewhere < this.maxPerPerson) return
    throw new AppError(
      'sql_busy',
      `You already have ${elsewhere === 1 ? 'a query' : `queries in ${elsewhere} organisations`} running in the embedded database's SQL sandboxes, and one person may use ${this.maxPerPerson === 1 ? 'one' : this.maxPerPerson} at a time so that others find one free: try again when ${elsewhere === 1 ? 'it has' : 'they have'} finished. ${SERVER_MODE}`,
      retryAfter(capMs),
    )
  }

  /** Counts a call of `person` in `orgId`'s sandbox (`by` +1 when it starts, -1 when it ends). */
  private hold(person: string, orgId: string, by: 1 | -1): void {
    const held = this.persons.get(person) ?? new Map<string, number>()
    const count = (held.get(orgId) ?? 0) + by
    if (count > 0) held.set(orgId, count)
    else held.delete(orgId)
    if (held.size > 0) this.persons.set(person, held)
    else this.persons.delete(person)
  }

  /** Drops the least recently used idle sandbox when the limit is reached, or refuses. */
  private makeRoom(capMs: number): void {
    if (this.entries.size < this.maxSandboxes) return
    // A Map keeps insertion order and run() re-inserts on use: the first idle one is the oldest.
    for (const [orgId, entry] of this.entries) {
      if (entry.active === 0) {
        void this.drop(orgId, entry)
        return
      }
    }
    throw new AppError(
      'sql_busy',
      `All ${this.maxSandboxes} SQL sandboxes of the embedded database are running other organisations' queries: try again in a few seconds. ${SERVER_MODE}`,
      retryAfter(capMs),
    )
  }

  private async drop(orgId: string, entry: Entry): Promise<void> {
    clearTimeout(entry.idle)
    if (this.entries.get(orgId) === entry) this.entries.delete(orgId)
    const sandbox = entry.sandbox
    entry.sandbox = undefined
    entry.version = undefined
    await sandbox?.terminate()
  }

  /** The organisation's sandbox, loaded with its current rows. */
  private async ready(orgId: string, entry: Entry): Promise<SqlSandbox> {
    // Most recently used last, for makeRoom.
    this.entries.delete(orgId)
    this.entries.set(orgId, entry)
    const { version, rows } = await this.dataVersion(orgId)
    if (entry.sandbox && !entry.sandbox.closed && entry.version === version) return entry.sandbox
    if (rows > this.maxRows) {
      throw new AppError(
        'sql_too_large',
        `This organisation has ${rows.toLocaleString('en')} rows, over the ${this.maxRows.toLocaleString('en')} the embedded database's SQL sandbox can hold. ${SERVER_MODE}`,
      )
    }
    await entry.sandbox?.terminate()
    entry.sandbox = undefined
    const sandbox = await this.openEmpty()
    try {
      await this.load(orgId, sandbox)
    } catch (error) {
      await sandbox.terminate()
      throw error
    }
    entry.sandbox = sandbox
    // The version read before loading: a change during the load makes the next run reload.
    entry.version = version
    return sandbox
  }

  /**
   * The organisation's data version: per table behind the views, its row count and newest row
   * version (`xmin`: every insert and update writes a new one, a delete lowers the count), read
   * as the application role under RLS; and the number of rows.
   */
  private async dataVersion(orgId: string): Promise<{ version: string; rows: number }> {
    const { tables } = await this.readCatalog()
    const counts = tables
      .map(
        (table) =>
          `SELECT count(*)::int AS n, coalesce(max(xmin::text::bigint), 0)::text AS x FROM ${quote(table)}`,
      )
      .join(' UNION ALL ')
    const result = await withTenant(this.db, { orgId }, (tx) => tx.execute(sql.raw(counts)))
    const rows = (result as unknown as { rows: { n: number; x: string }[] }).rows
    return {
      version: rows.map((r) => `${r.n}:${r.x}`).join('/'),
      rows: rows.reduce((sum, r) => sum + r.n, 0),
    }
  }

  /**
   * Makes the empty PGlite every sandbox opens from, once (initdb: tens of seconds on a loaded
   * machine), or reads it from `templateFile` when an earlier process kept it there. Call it at
   * start so the first query does not wait for initdb; rejects when PGlite cannot start.
   */
  prepare(): Promise<Blob> {
    this.template ??= (async () => {
      const file = this.templateFile
      if (file) {
        const kept = await readFile(file).catch(() => undefined)
        if (kept) return new Blob([new Uint8Array(kept)])
      }
      const sandbox = await SqlSandbox.open()
      this.preparing = sandbox
      try {
        const dump = await sandbox.dump()
        if (file) {
          // Written whole under another name first: a process stopped midway leaves no half file.
          await writeFile(`${file}.part`, new Uint8Array(await dump.arrayBuffer()))
          await rename(`${file}.part`, file)
        }
        return dump
      } finally {
        this.preparing = undefined
        await sandbox.terminate()
      }
    })()
    this.template.catch(() => (this.template = undefined))
    return this.template
  }

  /** A sandbox with an empty PGlite, opened from the template (~2.4 s), its memory capped. */
  private async openEmpty(): Promise<SqlSandbox> {
    return SqlSandbox.open(await this.prepare(), this.limits)
  }

  /** The views' columns and the tables they read, as the application's database defines them. */
  private readCatalog(): Promise<Catalog> {
    this.catalog ??= (async () => {
      const columns = await this.db.execute(
        sql`SELECT c.relname AS view, a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type
          FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
          JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = 'public' AND c.relkind = 'v' AND c.relname = ANY(${VIEW_NAMES}::text[])
            AND a.attnum > 0 AND NOT a.attisdropped
          ORDER BY c.relname, a.attnum`,
      )
      const tables = await this.db.execute(
        sql`SELECT DISTINCT table_name AS name FROM information_schema.view_table_usage
          WHERE view_schema = 'public' AND view_name = ANY(${VIEW_NAMES}::text[])
          ORDER BY 1`,
      )
      const byView = new Map<string, Column[]>()
      for (const row of (columns as unknown as { rows: (Column & { view: string })[] }).rows) {
        const list = byView.get(row.view) ?? []
        list.push({ name: row.name, type: row.type })
        byView.set(row.view, list)
      }
      const names = (tables as unknown as { rows: { name: string }[] }).rows.map((r) => r.name)
      return { columns: byView, tables: names }
    })()
    this.catalog.catch(() => (this.catalog = undefined))
    return this.catalog
  }

  /**
   * Creates the views' tables and the runner's role in `sandbox`, and copies the organisation's
   * rows into them page by page.
   * @throws AppError `sql_too_large` past SANDBOX_MAX_BYTES
   */
  private async load(orgId: string, sandbox: SqlSandbox): Promise<void> {
    const { columns } = await this.readCatalog()
    const ddl = SQL_VIEWS.map((view) => {
      const list = columns.get(view) ?? []
      return `CREATE TABLE ${quote(view)} (${list.map((c) => `${quote(c.name)} ${c.type}`).join(', ')});`
    })
    await sandbox.exec(`${ddl.join('\n')}
      CREATE ROLE lexdesk_sql NOLOGIN NOSUPERUSER NOBYPASSRLS NOINHERIT NOCREATEROLE NOCREATEDB;
      GRANT SELECT ON ALL TABLES IN SCHEMA public TO lexdesk_sql;`)
    let bytes = 0
    for (const view of SQL_VIEWS) {
      const idType = columns.get(view)?.find((c) => c.name === 'id')?.type ?? 'text'
      let after: string | null = null
      for (;;) {
        const page: Page = await this.readPage(orgId, view, idType, after)
        if (!page.json || page.n === 0) break
        bytes += page.json.length
        if (bytes > SANDBOX_MAX_BYTES) {
          throw new AppError(
            'sql_too_large',
            `This organisation's rows take more than ${SANDBOX_MAX_BYTES / 1024 ** 2} MB, over what the embedded database's SQL sandbox can hold. ${SERVER_MODE}`,
          )
        }
        await sandbox.query(
          `INSERT INTO ${quote(view)} SELECT * FROM json_populate_recordset(NULL::${quote(view)}, $1::json)`,
          [page.json],
        )
        if (!page.more) break
        after = page.last
      }
    }
    await sandbox.exec('ANALYZE')
  }

  /**
   * Up to SANDBOX_PAGE_ROWS rows of `view` after id `after`, in id order, as one JSON array
   * (PostgreSQL's own text: numbers and times exact), in one transaction of the runner's role;
   * cut after the row that takes the page past SANDBOX_PAGE_BYTES, so at least one row comes.
   */
  private async readPage(
    orgId: string,
    view: string,
    idType: string,
    after: string | null,
  ): Promise<Page> {
    const from = `SELECT * FROM ${quote(view)}`
    const order = `ORDER BY id LIMIT ${SANDBOX_PAGE_ROWS}`
    return this.db.transaction(async (tx: Tx) => {
      await tx.execute(enterSqlRunner(orgId))
      const page =
        after === null
          ? sql.raw(`${from} ${order}`)
          : sql`${sql.raw(from)} WHERE id > ${after}::${sql.raw(idType)} ${sql.raw(order)}`
      // `before`: the bytes of the rows ahead of each one, so a row is kept when it starts inside
      // the page's bytes.
      const result = await tx.execute(
        sql`SELECT json_agg(r.row ORDER BY r.id) FILTER (WHERE kept)::text AS json,
            count(*) FILTER (WHERE kept)::int AS n, count(*)::int AS read,
            (array_agg(r.id::text ORDER BY r.id DESC) FILTER (WHERE kept))[1] AS last
          FROM (SELECT s.id, s.row, s.before < ${SANDBOX_PAGE_BYTES} AS kept
            FROM (SELECT t.id, to_json(t) AS row,
                coalesce(sum(octet_length(to_json(t)::text)) OVER (ORDER BY t.id
                  ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS before
              FROM (${page}) t) s) r`,
      )
      const row = (
        result as unknown as {
          rows: { json: string | null; n: number; read: number; last: string | null }[]
        }
      ).rows[0]!
      return {
        json: row.json,
        n: row.n,
        last: row.last,
        // A full page of rows, or one cut by its bytes: there may be more after it.
        more: row.read === SANDBOX_PAGE_ROWS || row.n < row.read,
      }
    })
  }
}
