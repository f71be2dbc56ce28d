// Worker-thread side of SqlSandbox (sql-sandbox.ts, decision 0091): a private in-memory PGlite
// holding one organisation's rows of the SQL runner's views, and nothing else. The SQL runner's
// query runs here, never on the shared database thread, so the main thread can stop it at its
// time cap with worker.terminate() (PGlite cannot interrupt a statement; terminating the thread
// stops the WASM engine mid-statement). Plain JavaScript: Node 20 worker threads do not apply the
// parent's `--import tsx`.
//
// workerData: { template?: Blob (an empty PGlite's dumpDataDir, to skip initdb), textTypes }.
// Messages `{ id, op, ... }`, answered `{ id, ok: true, value }` or `{ id, ok: false, error }`:
//   query { sql, params, rowMode }   one statement with `$n` parameters
//   exec  { sql }                    one or more statements without parameters
//   dump  {}                         the data directory, uncompressed (the template of later ones)
import { parentPort, workerData } from 'node:worker_threads'
import { PGlite } from '@electric-sql/pglite'

const client = await PGlite.create({ loadDataDir: workerData.template })
// The same text types as the shared database's thread (Drizzle's), so a cell reads the same.
for (const type of workerData.textTypes) client.parsers[type] = (value) => value

/** PostgreSQL's error fields (code, position, …) kept as plain data across the thread. */
function plainError(error) {
  if (!(error instanceof Error)) return { message: String(error) }
  const plain = { message: error.message }
  for (const [key, value] of Object.entries(error)) {
    if (['string', 'number', 'boolean'].includes(typeof value)) plain[key] = value
  }
  return plain
}

function handle(message) {
  if (message.op === 'query')
    return client.query(message.sql, message.params, { rowMode: message.rowMode })
  if (message.op === 'exec') return client.exec(message.sql)
  if (message.op === 'dump') return client.dumpDataDir('none')
  throw new Error(`Unknown operation ${message.op}`)
}

parentPort.on('message', (message) => {
  Promise.resolve()
    .then(() => handle(message))
    .then(
      (value) => parentPort.postMessage({ id: message.id, ok: true, value }),
      (error) => parentPort.postMessage({ id: message.id, ok: false, error: plainError(error) }),
    )
})
parentPort.postMessage({ ready: true })
