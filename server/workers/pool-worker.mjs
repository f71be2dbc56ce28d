// The ES part of the shared WorkerPool's worker-thread entry, imported by pool-worker.cjs (the file
// piscina loads). It hands every task to run-pool-task, which imports the task's module and calls
// the named export. Built (dist/server, scripts/build-server.mjs) that is run-pool-task.js beside
// this file; from source it is the TypeScript, so the thread registers tsx itself first (a worker
// thread does not reliably get its parent's `--import tsx`), and tsx is needed only then: it is
// a dev dependency.
import { existsSync } from 'node:fs'

const built = new URL('./run-pool-task.js', import.meta.url)
let runPoolTask
if (existsSync(built)) {
  ;({ runPoolTask } = await import(built.href))
} else {
  const { register } = await import('tsx/esm/api')
  register()
  ;({ runPoolTask } = await import('./run-pool-task.ts'))
}

export default runPoolTask
