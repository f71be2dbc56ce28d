/**
 * What the log lines of the work in progress carry, across awaits (AsyncLocalStorage): the id of
 * the request being answered (`reqId`, Fastify's, from `X-Request-Id` or a UUID), and inside a
 * job's run its `jobId` with the `reqId` of the request that queued it (jobs.request_id), so an
 * operator follows one request into the background work it started (issue 28, decision 0068).
 */
import { AsyncLocalStorage } from 'node:async_hooks'

export interface LogContext {
  /** The request's id; null for a job the server queued by itself. */
  reqId: string | null
  /** Set while a job runs. */
  jobId?: string
}

const storage = new AsyncLocalStorage<LogContext>()

/** Runs `fn` (and every callback and await it starts) with `context`. */
export function runWithLogContext<T>(context: LogContext, fn: () => T): T {
  return storage.run(context, fn)
}

/** The context of the code running now, if any. */
export function currentLogContext(): LogContext | undefined {
  return storage.getStore()
}

/**
 * The fields a log line gets from its context (the logger's pino mixin): `reqId` and `jobId`
 * inside a job's run; nothing inside a request, whose logger (req.log) already binds `reqId`.
 */
export function jobLogFields(): Record<string, string> {
  const context = storage.getStore()
  if (!context?.jobId) return {}
  return context.reqId ? { reqId: context.reqId, jobId: context.jobId } : { jobId: context.jobId }
}
