/** Span equality, used to mark the finding whose passage is highlighted. */
import type { Span } from '../api/types'

/** True when `a` and `b` cover the same range; false when either is missing. */
export function isSameSpan(a: Span | null, b: Span | null): boolean {
  return a !== null && b !== null && a.start === b.start && a.end === b.end
}
