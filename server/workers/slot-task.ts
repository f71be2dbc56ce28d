/**
 * WorkerPool task that holds a thread while WorkerPool.runOnSlot's work (a child process) runs:
 * it waits for the pool's release and ends as completed when the work succeeded, else as failed.
 */
import type { PoolTaskContext } from './worker-pool'

export async function holdSlot(_input: null, context: PoolTaskContext): Promise<void> {
  if (!(await context.untilReleased())) throw new Error('The work on this slot failed.')
}
