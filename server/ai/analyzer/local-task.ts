/**
 * WorkerPool task: the local analysis engine (analyzeLocal, synchronous and CPU-bound) run on a
 * pool thread, so a long contract never blocks the server's event loop.
 */
import type { PoolTaskContext } from '../../workers/worker-pool'
import { analyzeLocal } from './local/analyze-local'
import type { AnalysisKind, AnalysisResult } from './types'

export interface LocalAnalysisInput {
  content: string
  kind: AnalysisKind
  /** The party the firm acts for; risks are oriented to it. */
  ourParty?: string
}

export function analyzeLocalTask(
  input: LocalAnalysisInput,
  context: PoolTaskContext,
): AnalysisResult {
  const result = analyzeLocal(input.content, input.kind, {
    ourParty: input.ourParty,
    onProgress: (fraction, message) => context.reportProgress(fraction, message),
  })
  context.reportProgress(1, 'Analysis finished')
  return result
}
