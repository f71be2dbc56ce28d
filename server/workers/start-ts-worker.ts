/**
 * Starts a worker thread running a TypeScript module (through tsx, see tsx-bootstrap.mjs).
 * `entry` is the module's URL, e.g. `new URL('./my-worker.ts', import.meta.url)`; `data` is
 * passed as `workerData.data`.
 */
import { Worker } from 'node:worker_threads'

const BOOTSTRAP = new URL('./tsx-bootstrap.mjs', import.meta.url)

export function startTsWorker(entry: URL, data?: unknown): Worker {
  return new Worker(BOOTSTRAP, { workerData: { entry: entry.href, data } })
}
