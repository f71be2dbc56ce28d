/**
 * The handler of 'comparison' jobs (contract: server/jobs/contracts/comparison-job-contract.ts,
 * decision 0149): reads the comparison's two documents' text in one short tenant transaction
 * (marking it `running`), compares them on a worker pool thread (compare-task.ts: the CPU-bound
 * engine never runs on the event loop; cancel aborts the thread), and writes the stored result
 * and its counts in a second one (`done`). A failure or a cancel marks the comparison `failed`
 * with a user-safe reason, and a failure ends the job with its code; a comparison deleted meanwhile ends the job
 * with nothing written (zero counts).
 */
import { eq } from 'drizzle-orm'
import { comparisons, documents } from '../../db/schema'
import { withTenant, type Principal } from '../../db/tenant'
import { AppError } from '../../errors/app-error'
import type { JobHandlerOf } from '../../jobs/define-job-contract'
import type { comparisonJobContract } from '../../jobs/contracts/comparison-job-contract'
import { jobPrincipal } from '../../jobs/job-runner'
import type { AppServices } from '../../services'
import type { Db } from '../../db/client'
import { poolTask, type WorkerPool } from '../../workers/worker-pool'
import type { CompareTaskInput } from './compare-task'
import { comparisonCounts, type StoredComparison } from './stored-comparison'
import { MAX_COMPARE_CHARACTERS } from './service'

/** Wall-clock seconds a comparison may run on its thread (about 10× the largest one measured). */
const COMPARE_TIMEOUT_MS = 120_000

const COMPARE = poolTask<CompareTaskInput, StoredComparison>(
  new URL('./compare-task.ts', import.meta.url),
  'compareTask',
  {
    timeout: {
      code: 'comparison_failed',
      detail: (ms) => `Comparing these documents took longer than ${ms / 1000} seconds.`,
    },
    out_of_memory: {
      code: 'comparison_failed',
      detail: 'Comparing these documents needed more memory than allowed.',
    },
    crashed: {
      code: 'comparison_failed',
      detail: 'Comparing these documents stopped unexpectedly. Try again.',
    },
  },
)

/** What a comparison job needs: the database and the worker pool. */
export type ComparisonJobDeps = { db: Db; pool: WorkerPool }

/** The 'comparison' handler over the app's database and worker pool. */
export function comparisonJobHandler(
  services: Pick<AppServices, 'db' | 'pool'>,
): JobHandlerOf<typeof comparisonJobContract> {
  const deps = { db: services.db, pool: services.pool }
  return {
    run: (job, context) => runComparison(deps, jobPrincipal(job), job.input.comparisonId, context),
  }
}

/**
 * Compares comparison `comparisonId`'s documents and stores the result (see the module comment);
 * resolves to its counts. Rejects with the signal's reason once cancelled, and with the failure
 * (the comparison then `failed`) otherwise.
 */
export async function runComparison(
  deps: ComparisonJobDeps,
  principal: Principal,
  comparisonId: string,
  context: { signal: AbortSignal; progress(fraction: number, message: string): void },
) {
  const none = { comparisonId, substantiveChanges: 0, formatChanges: 0, moves: 0 }
  context.progress(0.02, 'Reading both versions')
  const texts = await withTenant(deps.db, principal, async (tx) => {
    const [row] = await tx
      .update(comparisons)
      .set({ state: 'running', error: null })
      .where(eq(comparisons.id, comparisonId))
      .returning({ base: comparisons.baseDocumentId, revised: comparisons.revisedDocumentId })
    if (!row) return null
    const read = async (id: string) => {
      const [doc] = await tx
        .select({ content: documents.content })
        .from(documents)
        .where(eq(documents.id, id))
      return doc?.content ?? ''
    }
    return { base: await read(row.base), revised: await read(row.revised) }
  })
  if (!texts) return none
  try {
    // The cap again: a document's text can grow after the comparison was asked for (its OCR).
    for (const text of [texts.base, texts.revised])
      if (text.length > MAX_COMPARE_CHARACTERS)
        throw new AppError(
          'comparison_too_large',
          `A comparison takes versions of at most ${MAX_COMPARE_CHARACTERS.toLocaleString('en-US')} characters; one of these now has ${text.length.toLocaleString('en-US')}.`,
        )
    context.progress(0.1, 'Comparing clause by clause')
    const stored = await deps.pool.run(COMPARE, texts, {
      signal: context.signal,
      orgId: principal.orgId,
      timeoutMs: COMPARE_TIMEOUT_MS,
    })
    context.progress(0.9, 'Saving the comparison')
    const counts = comparisonCounts(stored)
    const saved = await withTenant(deps.db, principal, (tx) =>
      tx
        .update(comparisons)
        .set({
          state: 'done',
          result: stored,
          error: null,
          substantiveChanges: counts.substantiveChanges,
          formatChanges: counts.formatChanges,
          moves: counts.moves,
          finishedAt: new Date(),
        })
        .where(eq(comparisons.id, comparisonId))
        .returning({ id: comparisons.id }),
    )
    return saved.length === 0 ? none : { comparisonId, ...counts }
  } catch (error) {
    // A cancel (the job's, or a stop of the server, after which the job runs again and marks
    // it running) leaves the comparison failed rather than running for ever.
    const reason = context.signal.aborted
      ? 'The comparison was stopped before it finished. Compare the documents again.'
      : error instanceof AppError
        ? error.detail
        : 'Comparing these documents failed. Try again, or ask an administrator to check the server log.'
    await withTenant(deps.db, principal, (tx) =>
      tx
        .update(comparisons)
        .set({ state: 'failed', error: reason, finishedAt: new Date() })
        .where(eq(comparisons.id, comparisonId)),
    )
    if (context.signal.aborted || error instanceof AppError) throw error
    throw new AppError('comparison_failed', reason, {}, error)
  }
}
