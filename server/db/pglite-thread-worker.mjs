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
//   background { statements, mayStopAfter }
//                                         the same in the background lane (below), which may stop
//                                         it after `mayStopAfter` statements; answers
//                                         { results, heldMs, contended }
//   begin { tx }                          opens transaction number `tx`; answers once BEGIN ran
//   end   { tx, commit }                  commits (or rolls back) it; answers after COMMIT/ROLLBACK
//   dump  {}                              the data directory as an uncompressed tarball (tests)
//   listen { channel }                    LISTENs on `channel`; each notification on it is then
//                                         posted as `{ notification: { channel, payload } }`
//   unlisten { channel }                  stops that
//   close {}                              closes the database
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads'
import { PGlite, parse, protocol } from '@electric-sql/pglite'
import { vector } from '@electric-sql/pglite-pgvector'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'

const client = await PGlite.create({
  dataDir: workerData.dataDir,
  loadDataDir: workerData.loadDataDir,
  extensions: { vector, pg_trgm },
})
// Drizzle's text types (pglite-thread.ts): its per-query parsers cannot cross threads.
for (const type of workerData.textTypes) client.parsers[type] = (value) => value
// Prepared statements (below) keep their parse and analysis, but are planned for each run's own
// values by default, as unnamed statements were. A tenant read whose plan does not depend on its
// values asks for a reused (generic) plan in its own transaction (withTenantReads' reusePlans).
await client.exec('SET plan_cache_mode = force_custom_plan')
// batch (below) takes PGlite's transaction lock as its own query does; a PGlite without the
// method would let a batch run inside another transaction.
if (typeof client._runExclusiveTransaction !== 'function')
  throw new Error(
    'This PGlite has no _runExclusiveTransaction: see runBatch() in pglite-thread-worker',
  )

/**
 * Statements inside transactions run as named prepared statements, one per SQL text (least
 * recently used dropped past STATEMENT_CACHE): PostgreSQL parses and analyses each text once, and
 * each run is one message (bind, describe, execute, sync) where PGlite's `query` makes five calls
 * into the engine (decision 32). Plans are per run by default (plan_cache_mode above). A cached
 * statement is analysed again by PostgreSQL itself when a table it reads changes, or when it runs
 * under another role (so RLS applies as for a fresh statement). Top-level statements keep
 * PGlite's own path, which also serves statements that may not run inside a transaction.
 */
const STATEMENT_CACHE = 500
const statements = new Map() // SQL text → { name, paramTypes }
let nextStatement = 1
const { serialize } = protocol

/** The prepared statement of `text`, parsing it on first use (rejects with its parse error). */
async function prepared(text) {
  const known = statements.get(text)
  if (known) {
    statements.delete(text) // most recently used last
    statements.set(text, known)
    return known
  }
  const name = `lexdesk_${nextStatement++}`
  const { messages } = await client.execProtocol(
    Buffer.concat([
      serialize.parse({ name, text }),
      serialize.describe({ type: 'S', name }),
      serialize.sync(),
    ]),
    { syncToFs: false },
  )
  const statement = { name, paramTypes: parse.parseDescribeStatementResults(messages) }
  statements.set(text, statement)
  if (statements.size > STATEMENT_CACHE) {
    const [oldest, { name: dropped }] = statements.entries().next().value
    statements.delete(oldest)
    await client.execProtocol(
      Buffer.concat([serialize.close({ type: 'S', name: dropped }), serialize.sync()]),
      {
        syncToFs: false,
      },
    )
  }
  return statement
}

/** `params` serialised for a statement of `paramTypes`, as PGlite's own query does. */
function bindValues(paramTypes, params) {
  return params.map((value, i) => {
    if (value === null || value === undefined) return null
    const serializer = client.serializers[paramTypes[i]]
    return serializer ? serializer(value) : value.toString()
  })
}

/**
 * Drops `text`'s prepared statement (after it failed: "cached plan must not change result type",
 * say), so its next run parses it again. Call it holding the query lock.
 */
async function forget(text) {
  const known = statements.get(text)
  if (!known) return
  statements.delete(text)
  await client.execProtocol(
    Buffer.concat([serialize.close({ type: 'S', name: known.name }), serialize.sync()]),
    { syncToFs: false },
  )
}

/**
 * Runs `text` with `params` inside the open transaction as a prepared statement (bind, describe,
 * execute and sync in one message to PostgreSQL).
 */
function preparedQuery(text, params, rowMode) {
  return client.runExclusive(async () => {
    const { name, paramTypes } = await prepared(text)
    try {
      const { messages } = await client.execProtocol(
        Buffer.concat([
          serialize.bind({ statement: name, values: bindValues(paramTypes, params) }),
          serialize.describe({ type: 'P' }),
          serialize.execute({}),
          serialize.sync(),
        ]),
        { syncToFs: false },
      )
      return parse.parseResults(messages, client.parsers, { rowMode })[0]
    } catch (error) {
      await forget(text)
      throw error
    }
  })
}

/** The messages that end one Execute's answer (it asks for every row: never portalSuspended). */
const COMMAND_ENDS = new Set(['commandComplete', 'emptyQuery'])

/**
 * Runs `list` (`{ sql, params, rowMode }`) in one transaction of its own, as one message to
 * PostgreSQL: BEGIN, each statement's bind, describe and execute, COMMIT, then sync (decision 32).
 * Like PGlite's own query, it first waits for any open transaction to end (PGlite's transaction
 * lock). After an error PostgreSQL skips the rest; the transaction is rolled back, the batch's
 * statements are parsed afresh next time, and the error is thrown.
 *
 * With `mayStopAfter` below the list's length (a background batch, decision 0082) only BEGIN and
 * the first `mayStopAfter` statements go in that message; before each further statement the
 * messages that reached this thread meanwhile are dispatched, and if foreground work then waits
 * the transaction commits the statements that ran and skips the rest, so that work waits for at
 * most one statement. Returns `{ results, heldMs, stopped }`: one Results per statement run, how
 * long the transaction held the database (ms, from taking PGlite's lock to COMMIT) and whether it
 * stopped early.
 */
function runBatch(list, mayStopAfter = list.length) {
  return client._runExclusiveTransaction(() =>
    client.runExclusive(async () => {
      const started = performance.now()
      const begin = await prepared('BEGIN')
      const commit = await prepared('COMMIT')
      const steps = []
      for (const { sql, params } of list) {
        const { name, paramTypes } = await prepared(sql)
        steps.push([
          serialize.bind({ statement: name, values: bindValues(paramTypes, params) }),
          serialize.describe({ type: 'P' }),
          serialize.execute({}),
        ])
      }
      const send = async (parts) =>
        (await client.execProtocol(Buffer.concat(parts), { syncToFs: false })).messages
      const beginning = [
        serialize.bind({ statement: begin.name, values: [] }),
        serialize.execute({}),
      ]
      const ending = [serialize.bind({ statement: commit.name, values: [] }), serialize.execute({})]
      const messages = []
      let ran = Math.min(list.length, mayStopAfter)
      let stopped = false
      try {
        if (ran === list.length) {
          messages.push(
            ...(await send([...beginning, ...steps.flat(), ...ending, serialize.sync()])),
          )
        } else {
          messages.push(
            ...(await send([...beginning, ...steps.slice(0, ran).flat(), serialize.sync()])),
          )
          for (; ran < list.length; ran++) {
            dispatchArrived()
            if (foregroundWaiting()) {
              stopped = true
              break
            }
            messages.push(...(await send([...steps[ran], serialize.sync()])))
          }
          messages.push(...(await send([...ending, serialize.sync()])))
        }
      } catch (error) {
        await client.execProtocol(serialize.query('ROLLBACK'), { syncToFs: false })
        for (const { sql } of list) await forget(sql)
        throw error
      }
      // One run of messages per command, each ending in how its execution ended (commandComplete,
      // or emptyQuery for an empty text): BEGIN's, the statements', COMMIT's; the sync answers
      // (readyForQuery) between them are no command's.
      const commands = [[]]
      for (const message of messages) {
        if (message.name === 'readyForQuery') continue
        commands[commands.length - 1].push(message)
        if (COMMAND_ENDS.has(message.name)) commands.push([])
      }
      // BEGIN, the statements, COMMIT, and the empty run after COMMIT.
      if (commands.length !== ran + 3)
        throw new Error(`A batch of ${ran} statements answered ${commands.length - 3}`)
      const results = list
        .slice(0, ran)
        .map(
          ({ rowMode }, i) => parse.parseResults(commands[i + 1], client.parsers, { rowMode })[0],
        )
      return { results, heldMs: performance.now() - started, stopped }
    }),
  )
}

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

/** The UNLISTEN of each channel listened to (listen below), by channel name. */
const listening = new Map()

/** LISTENs on `channel` once, posting its notifications to the main thread. */
async function listen(channel) {
  if (listening.has(channel)) return
  const unlisten = await client.listen(channel, (payload) =>
    parentPort.postMessage({ notification: { channel, payload } }),
  )
  listening.set(channel, unlisten)
}

async function unlisten(channel) {
  const stop = listening.get(channel)
  listening.delete(channel)
  await stop?.()
}

/**
 * The background lane (decision 0082). PGlite runs one statement or transaction at a time, in
 * order of arrival; background batches (a document's passages being saved, say) would make every
 * request that arrives behind them wait for all of them. A background batch therefore starts only
 * when no foreground work is on this thread (foregroundWaiting), and one running stops between
 * its statements when foreground work arrives (runBatch's `mayStopAfter`), so that work waits for
 * at most one statement of it. One that waited BACKGROUND_MAX_WAIT_MS (pglite-thread.ts) starts
 * anyway, behind the foreground work already queued, so a steady stream of requests cannot stall
 * background work for good.
 */
const BACKGROUND_MAX_WAIT_MS = workerData.backgroundMaxWaitMs
/** Background batches waiting, oldest first: `{ message, due }` (due: performance.now() ms). */
const backgroundQueue = []
let backgroundRunning = false
let foregroundHandled = 0
let backgroundTimer
let backgroundTurn

/** Whether foreground work is on this thread: a message being handled or a transaction open. */
function foregroundWaiting() {
  return foregroundHandled > 0 || transactions.size > 0
}

/**
 * Dispatches the messages that reached this thread and were not delivered yet: a background
 * batch runs its statements one after the other without letting the event loop deliver them.
 */
function dispatchArrived() {
  for (let m = receiveMessageOnPort(parentPort); m; m = receiveMessageOnPort(parentPort))
    onMessage(m.message)
}

/**
 * Looks for the oldest background batch's turn once the messages already delivered to this
 * thread have been dispatched (setImmediate runs after them), so foreground work that arrived
 * while a batch ran is seen first.
 */
function nextBackground() {
  if (backgroundTurn) return
  backgroundTurn = setImmediate(startBackground)
}

/** Starts the oldest background batch if its turn has come (see BACKGROUND_MAX_WAIT_MS). */
function startBackground() {
  clearImmediate(backgroundTurn)
  backgroundTurn = undefined
  clearTimeout(backgroundTimer)
  const oldest = backgroundQueue[0]
  if (backgroundRunning || !oldest) return
  const wait = oldest.due - performance.now()
  if (foregroundWaiting() && wait > 0) {
    backgroundTimer = setTimeout(nextBackground, wait)
    return
  }
  backgroundQueue.shift()
  backgroundRunning = true
  const { statements, mayStopAfter } = oldest.message
  const run = runBatch(statements, mayStopAfter).then(({ results, heldMs, stopped }) => {
    // Foreground work that arrived during the last statement counts as waiting too.
    dispatchArrived()
    return { results, heldMs, contended: stopped || foregroundWaiting() }
  })
  answer(oldest.message, run).finally(() => {
    backgroundRunning = false
    nextBackground()
  })
}

async function handle(message) {
  switch (message.op) {
    case 'query':
      if (message.tx === undefined)
        return client.query(message.sql, message.params, { rowMode: message.rowMode })
      await target(message.tx)
      return preparedQuery(message.sql, message.params, message.rowMode)
    case 'exec':
      return (await target(message.tx)).exec(message.sql)
    case 'batch':
      return (await runBatch(message.statements)).results
    case 'begin':
      return begin(message.tx)
    case 'end':
      return end(message.tx, message.commit)
    case 'listen':
      return listen(message.channel)
    case 'unlisten':
      return unlisten(message.channel)
    case 'dump':
      return client.dumpDataDir('none')
    case 'close':
      return client.close()
    default:
      throw new Error(`Unknown operation ${message.op}`)
  }
}

/** Posts the outcome of `work` as the answer to `message`; settles once posted. */
function answer(message, work) {
  return work.then(
    (value) => parentPort.postMessage({ id: message.id, ok: true, value }),
    (error) => parentPort.postMessage({ id: message.id, ok: false, error: errorFields(error) }),
  )
}

/**
 * Handles one message from the main thread. A background batch that finds no foreground work
 * starts at once, ahead of any message delivered after it, which then waits for one of its
 * statements at most (runBatch).
 */
function onMessage(message) {
  if (message.op === 'background') {
    backgroundQueue.push({ message, due: performance.now() + BACKGROUND_MAX_WAIT_MS })
    startBackground()
    return
  }
  foregroundHandled++
  answer(message, handle(message)).finally(() => {
    foregroundHandled--
    nextBackground()
  })
}

parentPort.on('message', onMessage)
parentPort.postMessage({ ready: true })
