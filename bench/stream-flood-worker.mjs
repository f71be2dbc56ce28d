/**
 * The thread of stream-flood.ts (plain JavaScript: a worker does not get tsx's loader): opens
 * `count` realtime WebSockets on `url` with `headers` (ws's client: a browser's WebSocket cannot
 * send the session cookie from here), each following job `jobId`, posts the outcomes
 * ({ open, refused, failed }) once every upgrade has its answer, and keeps the open sockets until
 * it is sent 'close'.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { WebSocket } from 'ws'

/** @type {{ url: string, headers: Record<string, string>, count: number, jobId: string }} */
const { url, headers, count, jobId } = workerData
/** @type {WebSocket[]} */
const sockets = []
const outcomes = { open: 0, refused: 0, failed: 0 }
parentPort?.once('message', () => {
  for (const socket of sockets) socket.terminate()
  parentPort?.close()
})
await Promise.all(
  Array.from(
    { length: count },
    () =>
      new Promise((resolve) => {
        const socket = new WebSocket(url, { headers })
        sockets.push(socket)
        let settled = false
        /** Counts the socket's first outcome only (a refusal is followed by an error event). */
        const settle = (/** @type {'open' | 'refused' | 'failed'} */ outcome) => {
          if (settled) return
          settled = true
          outcomes[outcome] += 1
          resolve(undefined)
        }
        socket.once('open', () => {
          socket.send(JSON.stringify({ type: 'follow', jobId }))
          settle('open')
        })
        // An upgrade answered with a status instead: 429 is the per-person cap of sockets.
        socket.once('unexpected-response', (_req, res) => {
          settle(res.statusCode === 429 ? 'refused' : 'failed')
          res.resume()
          socket.terminate()
        })
        socket.on('error', () => settle('failed'))
        // Messages (the job's states) are read and dropped, as a slow page would not.
        socket.on('message', () => {})
      }),
  ),
)
parentPort?.postMessage(outcomes)
