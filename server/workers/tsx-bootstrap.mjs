// Worker-thread entry for TypeScript workers. Node 20 worker threads do not apply `--import`
// loaders before loading a TypeScript entry, so the worker registers tsx itself and then imports
// the module named by `workerData.entry` (a file: URL string).
import { workerData } from 'node:worker_threads'
import { register } from 'tsx/esm/api'

register()
await import(workerData.entry)
