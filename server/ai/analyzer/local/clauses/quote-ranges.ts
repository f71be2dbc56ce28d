/**
 * The sentence ranges a category's quotes cover (decision 0129): each chosen sentence takes in the
 * adjacent citable sentences whose probability for the category reaches `extendThreshold`, at
 * most `extendSentences` either side (the model's, decision 0132; EXTEND_SENTENCES by default), so that a quote covers the clause's extent rather than its
 * best sentence alone (a clause of three sentences is one passage to a lawyer, and quoting its
 * best one left the rest as misses or made the quote sit next to the labelled words). Ranges that
 * overlap are merged into one quote. Shared by detect-clauses.ts and the trainer, which
 * chooses `extendThreshold` out of fold.
 */
import { EXTEND_SENTENCES } from './clause-model'

/**
 * `chosen`: sentence indices to quote; `probability[s]`: sentence s's probability for the category;
 * `citable(s)`: whether sentence s may be quoted (operative). Returns inclusive [from, to]
 * sentence ranges sorted by start, each containing at least one chosen sentence. With
 * `extendThreshold` undefined every range is a single chosen sentence; `extendSentences` is the
 * most a quote extends either side. Pure.
 */
export function quoteRanges(
  chosen: readonly number[],
  probability: ArrayLike<number>,
  citable: (s: number) => boolean,
  extendThreshold: number | undefined,
  extendSentences: number = EXTEND_SENTENCES,
): [number, number][] {
  const ranges = chosen.map((s): [number, number] => {
    let from = s
    let to = s
    if (extendThreshold !== undefined) {
      const takes = (t: number) =>
        t >= 0 && t < probability.length && citable(t) && (probability[t] ?? 0) >= extendThreshold
      for (let k = 0; k < extendSentences && takes(to + 1); k += 1) to += 1
      for (let k = 0; k < extendSentences && takes(from - 1); k += 1) from -= 1
    }
    return [from, to]
  })
  ranges.sort((a, b) => a[0] - b[0])
  const merged: [number, number][] = []
  for (const range of ranges) {
    const last = merged[merged.length - 1]
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1])
    else merged.push([range[0], range[1]])
  }
  return merged
}
