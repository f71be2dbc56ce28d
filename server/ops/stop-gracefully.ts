/**
 * The graceful stop of a server process on SIGTERM (issue 28, decision 0068), within
 * `timeoutMs` (SHUTDOWN_TIMEOUT_S):
 * 1. drain: `/readyz` answers 503 and the job runner claims nothing new, while requests are still
 *    served for `drainMs`, the time a load balancer's health checks need to take the instance out
 *    (haproxy's `inter 1s fall 2`: about 2 s);
 * 2. `app.close()`: the listening socket closes, idle keep-alive connections close, requests in
 *    flight finish; event streams end and WebSockets close (their preClose hooks); the job runner
 *    lets running jobs finish for what is left of the budget, then hands the rest back;
 * 3. connections still open when the budget is spent are cut, so close() resolves.
 */
import type { FastifyInstance } from 'fastify'
import type { Lifecycle } from './lifecycle'

/**
 * How long to keep serving after /readyz turns 503: a quarter of the budget, at most 5 s (two
 * or three health checks of a load balancer checking every second or two).
 */
export function drainDelayMs(timeoutMs: number): number {
  return Math.min(5000, Math.floor(timeoutMs / 4))
}

/** Runs the stop described above; resolves once the app is closed. Never throws for a timeout. */
export async function stopGracefully(
  app: FastifyInstance,
  lifecycle: Lifecycle,
  options: { timeoutMs: number; drainMs: number },
): Promise<void> {
  lifecycle.drain(options.timeoutMs)
  app.log.info(
    { timeoutMs: options.timeoutMs, drainMs: options.drainMs },
    'draining: /readyz answers 503',
  )
  if (options.drainMs > 0) await new Promise((resolve) => setTimeout(resolve, options.drainMs))
  // A request that outlives the budget is cut, so the jobs' hand-back and the closes still run.
  const cut = setTimeout(() => app.server.closeAllConnections(), lifecycle.remainingMs())
  try {
    await app.close()
  } finally {
    clearTimeout(cut)
  }
}
