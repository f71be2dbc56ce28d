/**
 * The heap caps of a worker thread that runs hostile input (the worker pool's threads, the SQL
 * runner's sandboxes), as `resourceLimits` for `new Worker` or piscina.
 *
 * Node ends a thread past its cap from V8's near-heap-limit callback: it asks the thread to
 * terminate and grants 16 MB of headroom (`kExtraHeapAllowance`, src/node_worker.cc) until it
 * does. A scavenge promotes up to one semi-space (a third of the young generation) into the old
 * one at once, so a young generation over 48 MB can overrun that headroom mid-collection, and V8
 * then aborts the whole process ("Reached heap limit"; nodejs/node#47224, #65019). Node 24 gives
 * a thread Node's own default young generation, 192 MB on this machine, when only the old one is
 * capped: the pool's heap-bomb test aborted its whole process in 2 of 4 runs under load (measured
 * with a thread pushing strings under a 64 MB cap: 9 of 24 aborted, 0 of 24 with 8, 16 or 32 MB
 * of young generation, 13 of 24 with 64 MB).
 */
import type { ResourceLimits } from 'node:worker_threads'

/** The young generation of every capped thread, MB: semi-spaces of ~11 MB, under the 16 MB headroom. */
export const THREAD_YOUNG_GENERATION_MB = 32

/** `resourceLimits` capping a thread's old generation at `heapMb` MB and its young one as above. */
export function threadResourceLimits(heapMb: number): ResourceLimits {
  return {
    maxOldGenerationSizeMb: heapMb,
    maxYoungGenerationSizeMb: Math.min(THREAD_YOUNG_GENERATION_MB, heapMb),
  }
}
