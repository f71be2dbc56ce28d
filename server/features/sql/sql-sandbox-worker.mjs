// Worker-thread side of SqlSandbox (sql-sandbox.ts, decision 0091): a private in-memory PGlite
// holding one organisation's rows of the SQL runner's views, and nothing else. The SQL runner's
// query runs here, never on the shared database thread, so the main thread can stop it at its
// time cap with worker.terminate() (PGlite cannot interrupt a statement; terminating the thread
// stops the WASM engine mid-statement). Plain JavaScript: Node 20 worker threads do not apply the
// parent's `--import tsx`.
//
// workerData: { template?: Blob (an empty PGlite's dumpDataDir, to skip initdb), textTypes,
//   maxMemoryBytes?: the most the PGlite's WASM memory may grow to (decision 0108) }.
// Messages `{ id, op, ... }`, answered `{ id, ok: true, value }` or `{ id, ok: false, error }`:
//   query  { sql, params, rowMode, maxResultChars? }  one statement with `$n` parameters; an
//          answer whose cells hold more than maxResultChars characters in all is refused with
//          SQLSTATE 54000 (program_limit_exceeded) rather than copied to the main thread
//   exec   { sql }                   one or more statements without parameters
//   dump   {}                        the data directory, uncompressed (the template of later ones)
//   memory {}                        the bytes of the PGlite's WASM memory now
import { parentPort, workerData } from 'node:worker_threads'

// PGlite makes its WASM memory itself (`new WebAssembly.Memory({ initial, maximum: 2 GB })`) and
// offers no option for its maximum. Lowering the maximum here caps the sandbox (decision 0108):
// past it PostgreSQL's allocation fails and the query ends with its `out of memory` error
// (53200), the engine intact, instead of the memory growing to 2 GB and staying there (a WASM
// memory never shrinks; only ending the thread returns it).
const memories = []
if (workerData.maxMemoryBytes) {
  const maxPages = Math.floor(workerData.maxMemoryBytes / 65_536)
  const WasmMemory = WebAssembly.Memory
  WebAssembly.Memory = class CappedMemory extends WasmMemory {
    constructor(descriptor) {
      const maximum = Math.min(descriptor.maximum ?? maxPages, maxPages)
      super({ ...descriptor, initial: Math.min(descriptor.initial, maximum), maximum })
      memories.push(this)
    }
  }
}

const { PGlite } = await import('@electric-sql/pglite')
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

/** The characters of a result's cells (text as it is, other values as JSON), stopping past `cap`. */
function resultChars(rows, cap) {
  let total = 0
  for (const row of rows) {
    for (const value of Object.values(row)) {
      if (typeof value === 'string') total += value.length
      else if (value !== null && typeof value === 'object') total += JSON.stringify(value).length
      else total += 8
    }
    if (total > cap) break
  }
  return total
}

async function query(message) {
  const result = await client.query(message.sql, message.params, { rowMode: message.rowMode })
  const cap = message.maxResultChars
  if (cap !== undefined && resultChars(result.rows, cap) > cap) {
    throw Object.assign(new Error(`The query's answer holds more than ${cap} characters`), {
      code: '54000',
      resultTooLarge: true,
    })
  }
  return result
}

function handle(message) {
  if (message.op === 'query') return query(message)
  if (message.op === 'exec') return client.exec(message.sql)
  if (message.op === 'dump') return client.dumpDataDir('none')
  if (message.op === 'memory') {
    return Math.max(0, ...memories.map((memory) => memory.buffer.byteLength))
  }
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
