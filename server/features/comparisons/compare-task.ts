/**
 * WorkerPool task: one comparison (server/compare/ compareTexts) of a base and a revised text,
 * in its stored form (stored-comparison.ts), so the CPU-bound work (clauses, alignment, word
 * diffs, the notes' clause model) runs on a pool thread, never on the event loop.
 */
import { compareTexts } from '../../compare/compare-texts'
import { storeComparison, type StoredComparison } from './stored-comparison'

export interface CompareTaskInput {
  base: string
  revised: string
}

export function compareTask(input: CompareTaskInput): StoredComparison {
  return storeComparison(compareTexts(input.base, input.revised))
}
