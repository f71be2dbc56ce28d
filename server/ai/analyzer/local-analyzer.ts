/**
 * The local engine as an Analyzer: analyzeLocal runs as a task on the shared WorkerPool, so a long
 * contract (hundreds of milliseconds of CPU) never blocks the server's event loop, and analyses
 * share the pool's concurrency cap with every other CPU-heavy task.
 */
import { AppError } from '../../errors/app-error'
import { poolTask, WorkerTaskFailure, type WorkerPool } from '../../workers/worker-pool'
import type { LocalAnalysisInput } from './local-task'
import type { AnalysisKind, AnalysisResult, AnalyzeOptions, Analyzer } from './types'

/** The analysis task, and the problems of an analysis the pool stopped at one of its limits. */
const ANALYZE = poolTask<LocalAnalysisInput, AnalysisResult>(
  new URL('./local-task.ts', import.meta.url),
  'analyzeLocalTask',
  {
    timeout: {
      code: 'analysis_timeout',
      detail:
        'Analysing this document took longer than the server allows (WORKER_TASK_TIMEOUT_S), so it was stopped.',
    },
    out_of_memory: {
      code: 'analysis_too_large',
      detail:
        'Analysing this document needed more memory than a worker may use (WORKER_HEAP_MB), so it was stopped.',
    },
  },
)

/**
 * Analyses on `pool`. `analyze` rejects with the signal's reason when aborted (a running task's
 * thread is terminated and replaced by the pool); with a 422 AppError `analysis_timeout` past the
 * pool's task timeout (WORKER_TASK_TIMEOUT_S) or `analysis_too_large` past a thread's heap
 * (WORKER_HEAP_MB); and with an Error "The local analysis engine failed: …" when the task throws
 * or its thread dies.
 */
export class LocalAnalyzer implements Analyzer {
  readonly engine = 'local'

  constructor(private readonly pool: WorkerPool) {}

  async analyze(
    content: string,
    kind: AnalysisKind,
    options: AnalyzeOptions = {},
  ): Promise<AnalysisResult> {
    options.signal?.throwIfAborted()
    try {
      return await this.pool.run(
        ANALYZE,
        { content, kind, ourParty: options.ourParty },
        { signal: options.signal, onProgress: options.onProgress },
      )
    } catch (error) {
      if (options.signal?.aborted || error instanceof AppError) throw error
      const reason = error instanceof WorkerTaskFailure ? error.reason : (error as Error).message
      throw new Error(`The local analysis engine failed: ${reason}`, { cause: error })
    }
  }
}
