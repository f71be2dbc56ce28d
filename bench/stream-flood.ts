/**
 * A member opening many event streams at once, from a thread of its own (stream-flood-worker.mjs):
 * its own event loop and its own connections, as an attacker's client is not the neighbour's nor
 * the load balancer's. Run in the benchmark's thread, the thousand fetches held that thread's
 * event loop for up to 2 s and queued its /readyz poll behind them (decision 0081), so the poll
 * timed the flooding client, not the server.
 */
import { Worker } from 'node:worker_threads'

/** Outcomes of the streams asked for: 200, 429, anything else or a network error. */
export interface StreamOutcomes {
  open: number
  refused: number
  failed: number
}

/**
 * Opens `count` streams on `url` with `headers` from another thread. `outcomes` resolves once
 * every request has its answer; `close()` ends the open streams and the thread.
 */
export function floodStreams(url: string, headers: Record<string, string>, count: number) {
  const worker = new Worker(new URL('./stream-flood-worker.mjs', import.meta.url), {
    workerData: { url, headers, count },
  })
  const outcomes = new Promise<StreamOutcomes>((resolve, reject) => {
    worker.once('message', resolve)
    worker.once('error', reject)
    worker.once('exit', () => reject(new Error('the stream flood ended before its answers')))
  })
  return {
    outcomes,
    async close(): Promise<void> {
      worker.postMessage('close')
      await worker.terminate()
    },
  }
}
