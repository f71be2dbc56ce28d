// Worker-thread entry of the shared WorkerPool (piscina), in CommonJS on purpose. Piscina
// require()s its entry before it falls back to import(), and on Node 20 require() of an ES module
// whose graph awaits at top level (pool-worker.mjs, which registers tsx) once aborted the whole
// process: "FATAL ERROR: v8::Module::IsGraphAsync must be used on an instantiated module" (a
// vitest fork on CI, decision 9). A CommonJS entry is required without the ES module loader; the
// ES part is imported as the thread starts, and each task waits for it.
'use strict'

const loading = import('./pool-worker.mjs').then((module) => module.default)
// A failed load is reported by every task that awaits it, not as an unhandled rejection.
loading.catch(() => {})

/** Runs one pool task message (run-pool-task.ts) once the ES part has loaded. */
module.exports = async function runPoolTaskInThread(message) {
  const runPoolTask = await loading
  return runPoolTask(message)
}
