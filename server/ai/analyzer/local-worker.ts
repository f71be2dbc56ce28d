/**
 * Worker-thread entry for LocalAnalyzer: runs analyzeLocal on each job posted by the parent and
 * posts back `{ id, result }` or `{ id, error }`, one job at a time, in arrival order.
 */
import { parentPort } from 'node:worker_threads'
import { analyzeLocal } from './local/analyze-local'
import type { LocalJob, LocalJobReply } from './local-analyzer'

const port = parentPort
if (!port) throw new Error('local-worker.ts must run in a worker thread.')

port.on('message', ({ id, content, kind }: LocalJob) => {
  let reply: LocalJobReply
  try {
    reply = { id, result: analyzeLocal(content, kind) }
  } catch (error) {
    reply = { id, error: error instanceof Error ? error.message : String(error) }
  }
  port.postMessage(reply)
})
