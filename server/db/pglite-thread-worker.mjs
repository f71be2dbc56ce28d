// Worker-thread side of PgliteThread (pglite-thread.ts): owns the embedded PGlite instance, so
// PostgreSQL's WASM work (parse, plan, execute, copy rows) runs on this thread and never holds the
// HTTP server's event loop (decision 32). Plain JavaScript: Node 20 worker threads do not apply the
// parent's `--import tsx`, and this file needs nothing of the TypeScript code base.
//
// Messages from the main thread, each `{ id, op, ... }`, answered `{ id, ok: true, value }` or
// `{ id, ok: false, error }` (error: the PostgreSQL error's own fields, see errorFields):
//   query { sql, params, rowMode, tx? }   one statement (extended protocol), in transaction `tx`
//   exec  { sql, tx? }                    one or more statements (simple protocol)
//   batch { statements: [{ sql, params, rowMode }] }
//                                         runs them in one transaction of its own; their Results
//   begin { tx }                          opens transaction number `tx`; answers once BEGIN ran
//   end   { tx, commit }                  commits (or rolls back) it; answers after COMMIT/ROLLBACK
//   dump  {}                              the data directory as a gzipped tarball (tests)
//   close {}                              closes the database
import { parentPort, workerData } from 'node:worker_threads'
import { PGlite, types } from '@electric-sql/pglite'
import { vector } from '@electric-sql/pglite-pgvector'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'

// Drizzle reads these types as text (drizzle-orm/pglite/session.js) and sends its own parsers
// with every query; functions cannot cross threads, so they are this instance's defaults instead.
const DRIZZLE_TEXT_TYPES = [
  types.TIMESTAMP,
  types.TIMESTAMPTZ,
  types.INTERVAL,
  types.DATE,
  1231, // numeric[]
  1115, // timestamp[]
  1185, // timestamptz[]
  1187, // interval[]
  1182, // date[]
]

const client = await PGlite.create({
  dataDir: workerData.dataDir,
  loadDataDir: workerData.loadDataDir,
  extensions: { vector, pg_trgm },
})
for (const type of DRIZZLE_TEXT_TYPES) client.parsers[type] = (value) => value

/** A PostgreSQL error as plain data: structured cloning would keep only `message` and `name`. */
function errorFields(error) {
  if (!(error instanceof Error)) return { message: String(error) }
  const fields = { message: error.message, name: error.name }
  for (const [key, value] of Object.entries(error)) {
    if (value === undefined || typeof value === 'function' || typeof value === 'object') continue
    fields[key] = value
  }
  return fields
}

/**
 * Transactions by the number the main thread gave them: `ready` resolves with the PGlite handle
 * once BEGIN ran, `end(commit)` lets the transaction's callback finish, `done` settles after
 * COMMIT or ROLLBACK. Statements of a transaction may arrive before its BEGIN ran (the main thread
 * does not wait for it): they wait for `ready`, and PGlite's FIFO query lock keeps their order.
 */
const transactions = new Map()

/** Starts transaction `tx` (BEGIN waits for any other transaction to end); resolves once begun. */
function begin(tx) {
  const entry = {}
  entry.ready = new Promise((opened, failed) => {
    entry.done = client.transaction(async (handle) => {
      const ended = new Promise((resolve) => (entry.end = resolve))
      opened(handle)
      if (!(await ended)) await handle.rollback()
    })
    entry.done.catch(failed) // BEGIN failed; later failures are end()'s to report
  })
  transactions.set(tx, entry)
  return entry.ready.then(() => undefined)
}

/** The handle a message addresses: its transaction once begun, or the database itself. */
async function target(tx) {
  if (tx === undefined) return client
  const entry = transactions.get(tx)
  if (!entry) throw new Error(`Transaction ${tx} is not open`)
  return entry.ready
}

/** Ends transaction `tx`: COMMIT when `commit`, else ROLLBACK; rejects with COMMIT's error. */
async function end(tx, commit) {
  const entry = transactions.get(tx)
  if (!entry) throw new Error(`Transaction ${tx} is not open`)
  transactions.delete(tx)
  await entry.ready
  entry.end(commit)
  await entry.done
}

async function handle(message) {
  switch (message.op) {
    case 'query':
      return (await target(message.tx)).query(message.sql, message.params, {
        rowMode: message.rowMode,
      })
    case 'exec':
      return (await target(message.tx)).exec(message.sql)
    case 'batch':
      return client.transaction(async (tx) => {
        const results = []
        for (const { sql, params, rowMode } of message.statements)
          results.push(await tx.query(sql, params, { rowMode }))
        return results
      })
    case 'begin':
      return begin(message.tx)
    case 'end':
      return end(message.tx, message.commit)
    case 'dump':
      return client.dumpDataDir('gzip')
    case 'close':
      return client.close()
    default:
      throw new Error(`Unknown operation ${message.op}`)
  }
}

parentPort.on('message', (message) => {
  handle(message).then(
    (value) => parentPort.postMessage({ id: message.id, ok: true, value }),
    (error) => parentPort.postMessage({ id: message.id, ok: false, error: errorFields(error) }),
  )
})
parentPort.postMessage({ ready: true })
