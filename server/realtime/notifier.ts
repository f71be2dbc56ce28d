/**
 * The notifier seam (issue 24, decision 0052): PostgreSQL's LISTEN/NOTIFY as one interface, so
 * whatever announces a change (a trigger's `pg_notify`, a job runner's progress) reaches every
 * listener of every server process sharing the database. On embedded PGlite it is PGlite's own
 * in-process `listen` on the database thread (pglite-thread.ts); on PostgreSQL it is one
 * dedicated connection per process (never one of the pool's, which a LISTEN would pin), which
 * re-listens after a reconnect. Notifications arrive as their transactions commit: a rolled-back
 * change announces nothing.
 */
import pg from 'pg'
import { sql } from 'drizzle-orm'
import type { Database } from '../db/client'
import { PgliteThread } from '../db/pglite-thread'

/** Calls listeners of channels; channels are lower-case SQL identifiers. */
export interface Notifier {
  /**
   * Calls `listener` with each payload sent on `channel` from the moment the promise resolves;
   * resolves with the function that stops it.
   */
  listen(channel: string, listener: (payload: string) => void): Promise<() => Promise<void>>
  /** Sends `payload` (at most 8,000 bytes, PostgreSQL's limit) on `channel` to every process. */
  notify(channel: string, payload: string): Promise<void>
  /** Stops listening and closes the dedicated connection, if any. */
  close(): Promise<void>
}

/** A channel is an identifier that LISTEN accepts unquoted: nothing to escape. */
const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/

function checkChannel(channel: string): void {
  if (!CHANNEL.test(channel)) throw new Error(`notifier: '${channel}' is not a channel name`)
}

/** Listeners by channel, and the calls made when a channel gains its first or loses its last. */
class Channels {
  private readonly listeners = new Map<string, Set<(payload: string) => void>>()

  constructor(
    private readonly first: (channel: string) => Promise<void>,
    private readonly last: (channel: string) => Promise<void>,
  ) {}

  get names(): string[] {
    return [...this.listeners.keys()]
  }

  deliver(channel: string, payload: string): void {
    for (const listener of this.listeners.get(channel) ?? []) listener(payload)
  }

  async add(channel: string, listener: (payload: string) => void): Promise<() => Promise<void>> {
    checkChannel(channel)
    let set = this.listeners.get(channel)
    if (!set) {
      set = new Set()
      this.listeners.set(channel, set)
      await this.first(channel)
    }
    set.add(listener)
    return async () => {
      if (!set.delete(listener) || set.size > 0) return
      this.listeners.delete(channel)
      await this.last(channel)
    }
  }
}

/** The notifier of embedded PGlite: its in-process listen on the database thread. */
function pgliteNotifier(database: Database, thread: PgliteThread): Notifier {
  const stops: Array<() => Promise<void>> = []
  return {
    async listen(channel, listener) {
      checkChannel(channel)
      const stop = await thread.listen(channel, listener)
      stops.push(stop)
      return stop
    },
    notify: (channel, payload) => sendNotify(database, channel, payload),
    async close() {
      await Promise.allSettled(stops.splice(0).map((stop) => stop()))
    },
  }
}

/** Time before reconnecting the dedicated connection after it failed (ms). */
const RECONNECT_MS = 1000

/**
 * The notifier of PostgreSQL: one connection of its own with `options` (the pool's), opened on
 * the first listen. When it fails it is opened again after RECONNECT_MS and LISTENs again on
 * every channel; notifications sent meanwhile are lost (PostgreSQL keeps none for a listener
 * that is not connected), so listeners that must not miss a change re-read after `onReconnect`.
 */
function postgresNotifier(
  database: Database,
  options: pg.ClientConfig,
  log: { warn(fields: object, message: string): void },
): Notifier {
  let client: pg.Client | null = null
  let connecting: Promise<pg.Client> | null = null
  let closed = false
  const connect = (): Promise<pg.Client> => {
    if (client) return Promise.resolve(client)
    connecting ??= (async () => {
      const next = new pg.Client(options)
      next.on('notification', (message) => channels.deliver(message.channel, message.payload ?? ''))
      next.on('error', (error) => {
        log.warn({ err: error }, 'the notifier connection failed; reconnecting')
        if (client === next) client = null
        void next.end().catch(() => {})
        if (!closed) setTimeout(() => void relisten(), RECONNECT_MS).unref()
      })
      await next.connect()
      client = next
      return next
    })().finally(() => (connecting = null))
    return connecting
  }
  const relisten = async () => {
    try {
      const c = await connect()
      for (const name of channels.names) await c.query(`LISTEN ${name}`)
    } catch (error) {
      log.warn({ err: error }, 'the notifier could not reconnect; trying again')
      if (!closed) setTimeout(() => void relisten(), RECONNECT_MS).unref()
    }
  }
  const channels = new Channels(
    async (name) => void (await (await connect()).query(`LISTEN ${name}`)),
    async (name) => void (await client?.query(`UNLISTEN ${name}`)),
  )
  return {
    listen: (channel, listener) => channels.add(channel, listener),
    notify: (channel, payload) => sendNotify(database, channel, payload),
    async close() {
      closed = true
      await client?.end().catch(() => {})
      client = null
    },
  }
}

async function sendNotify(database: Database, channel: string, payload: string): Promise<void> {
  checkChannel(channel)
  await database.db.execute(sql`SELECT pg_notify(${channel}, ${payload})`)
}

/**
 * The notifier of `database`: in-process on embedded PGlite, a dedicated connection (with the
 * pool's connection settings) on PostgreSQL. `log` hears of a lost connection.
 */
export function createNotifier(
  database: Database,
  log: { warn(fields: object, message: string): void },
): Notifier {
  const client = (database.db as unknown as { $client?: unknown }).$client
  if (client instanceof PgliteThread) return pgliteNotifier(database, client)
  if (client instanceof pg.Pool) return postgresNotifier(database, client.options, log)
  throw new Error('createNotifier: the database is neither embedded PGlite nor a pg Pool')
}
