// The ES part of the shared WorkerPool's worker-thread entry, imported by pool-worker.cjs (the file
// piscina loads). Node 20 worker threads do not apply `--import` loaders, so this plain-JS module
// registers tsx itself and then hands every task to run-pool-task.ts, which imports the task's
// TypeScript module and calls the named export.
import { register } from 'tsx/esm/api'

register()
const { runPoolTask } = await import('./run-pool-task.ts')

export default runPoolTask
