/**
 * Whose share of the worker pool the work in progress draws on (FairScheduler, decision 0107),
 * carried across awaits (AsyncLocalStorage) so that work deep in an engine (an embedding batch, a
 * speech program, a page of OCR) is counted for the organisation whose job runs it without each
 * engine's interface taking an organisation id. The job runner runs every job inside its
 * organisation's share; a request passes its organisation to the pool explicitly (`orgId` of
 * WorkerPool's run options), which wins over this context.
 */
import { AsyncLocalStorage } from 'node:async_hooks'

/** The share of work done for no organisation in particular (the server's own). */
export const SERVER_SHARE = ''

const storage = new AsyncLocalStorage<string>()

/** Runs `fn` (and every callback and await it starts) in organisation `orgId`'s share. */
export function withPoolShare<T>(orgId: string, fn: () => T): T {
  return storage.run(orgId, fn)
}

/** The organisation whose share the code running now draws on; SERVER_SHARE outside any. */
export function currentPoolShare(): string {
  return storage.getStore() ?? SERVER_SHARE
}
