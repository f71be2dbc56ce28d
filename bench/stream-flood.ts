/**
 * A member opening many live channels at once, from a thread of its own
 * (stream-flood-worker.mjs): realtime WebSockets of its organisation, each following one job
 * (decision 0125: the channel job progress goes over since the per-job event streams went; it
 * flooded those before). Its own event loop and its own connections, as an attacker's client is
 * not the neighbour's nor the load balancer's. Run in the benchmark's thread, the thousand
 * requests held that thread's event loop for up to 2 s and queued its /readyz poll behind them
 * (decision 0081), so the poll timed the flooding client, not the server.
 */
import { Worker } from 'node:worker_threads'

/** Outcomes of the sockets asked for: opened, refused (429), anything else or a network error. */
export interface StreamOutcomes {
  open: number
  refused: number
  failed: number
}

/**
 * Opens `count` realtime sockets on `url` (ws: or wss:) with `headers` from another thread, each
 * following job `jobId`. `outcomes` resolves once every upgrade has its answer; `close()` ends
 * the open sockets and the thread.
 */
export function floodStreams(
  url: string,
  headers: Record<string, string>,
  count: number,
  jobId: string,
) {
  const worker = new Worker(new URL('./stream-flood-worker.mjs', import.meta.url), {
    workerData: { url, headers, count, jobId },
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
