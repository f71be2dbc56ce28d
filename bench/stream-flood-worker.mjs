/**
 * The thread of stream-flood.ts (plain JavaScript: a worker does not get tsx's loader): opens
 * `count` event streams on `url` with `headers`, posts the outcomes ({ open, refused, failed })
 * once every request has its answer, and keeps the open streams until it is sent 'close'.
 */
import { parentPort, workerData } from 'node:worker_threads'

/** @type {{ url: string, headers: Record<string, string>, count: number }} */
const { url, headers, count } = workerData
const abort = new AbortController()
const outcomes = { open: 0, refused: 0, failed: 0 }
parentPort?.once('message', () => {
  abort.abort()
  parentPort?.close()
})
await Promise.all(
  Array.from({ length: count }, async () => {
    try {
      const res = await fetch(url, { headers, signal: abort.signal })
      if (res.status === 200) outcomes.open += 1
      else if (res.status === 429) outcomes.refused += 1
      else outcomes.failed += 1
      if (res.status !== 200) await res.arrayBuffer()
      else void res.body?.pipeTo(new WritableStream()).catch(() => {})
    } catch {
      if (!abort.signal.aborted) outcomes.failed += 1
    }
  }),
)
parentPort?.postMessage(outcomes)
