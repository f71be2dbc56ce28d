/**
 * WorkerPool tasks of comparisons, so their CPU-bound work runs on a pool thread, never on the
 * event loop: `compareTask`, one comparison (server/compare/ compareTexts: clauses, alignment,
 * word diffs, the notes' clause model) of a base and a revised text in its stored form
 * (stored-comparison.ts); `redlineTask`, the verified tracked-changes DOCX of a stored comparison.
 */
import { compareTexts } from '../../compare/compare-texts'
import type { Comparison } from '../../compare/comparison'
import { buildVerifiedRedline } from '../../compare/redline-docx'
import { rebuildSegments, storeComparison, type StoredComparison } from './stored-comparison'

export interface CompareTaskInput {
  base: string
  revised: string
}

export function compareTask(input: CompareTaskInput): StoredComparison {
  return storeComparison(compareTexts(input.base, input.revised))
}

export interface RedlineTaskInput {
  base: string
  revised: string
  stored: StoredComparison
}

/**
 * The verified DOCX redline (buildVerifiedRedline) of `stored` over the texts it compared;
 * throws 409 `comparison_stale` when a text is not the one compared (rebuildSegments), and
 * RedlineMismatchError (a bug of the writer) when the package does not read back as both texts.
 */
export function redlineTask(input: RedlineTaskInput): Uint8Array {
  const segments = rebuildSegments(input.stored, input.base, input.revised)
  const comparison = { base: input.base, revised: input.revised, segments } as Pick<
    Comparison,
    'base' | 'revised' | 'segments'
  > as Comparison
  return buildVerifiedRedline(comparison)
}
