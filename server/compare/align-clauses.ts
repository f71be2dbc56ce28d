/**
 * Clause alignment of two versions (decision 0146): pairs each clause of the base with at most one
 * of the revised version, in three passes: the same words (numbering, case, punctuation and
 * spacing set aside), then the same caption with words in common, then the most similar words
 * (Dice coefficient over word sets, Dice 1945, candidates found through an inverted index of the
 * rarer words). Pairs are then split into those that keep their order (the heaviest increasing
 * subsequence of revised positions: the fewest clauses move, the least text on a tie) and those
 * that moved.
 */
import type { ClauseUnit } from './comparison'

/** A base clause paired with a revised one; `moved` when it left the order of the others. */
export interface AlignedPair {
  base: number
  revised: number
  moved: boolean
}

/** Dice of word sets at or above this pairs two clauses (no shared caption). */
const MIN_SIMILARITY = 0.5

/** With the same caption, this much is enough (the caption vouches for the rest). */
const MIN_SIMILARITY_SAME_CAPTION = 0.25

/** A word in more clauses than this (or this share of them) finds no candidates: too common. */
const COMMON_WORD_CLAUSES = 30
const COMMON_WORD_SHARE = 0.05

/** At most this many candidates per clause have their similarity computed. */
const CANDIDATES = 8

/** The comparable form of a clause: no numbering label (unless it is all there is), lower case, words only. */
export function contentKey(text: string, unit: ClauseUnit): string {
  const from = unit.labelSpan ? unit.labelSpan.end : unit.span.start
  const key = words(text.slice(from, unit.span.end)).join(' ')
  // A clause that is only a number ("2", a page number) keeps it: it is its content.
  return key !== '' ? key : words(text.slice(unit.span.start, unit.span.end)).join(' ')
}

function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
}

/**
 * The pairs of `baseClauses` (of `base`) and `revisedClauses` (of `revised`), sorted by base
 * index. Each clause is in at most one pair. Pure; never throws; about linear in the number of
 * clauses for texts that share most words (candidate lists are capped).
 */
export function alignClauses(
  base: string,
  baseClauses: readonly ClauseUnit[],
  revised: string,
  revisedClauses: readonly ClauseUnit[],
): AlignedPair[] {
  const baseKeys = baseClauses.map((c) => contentKey(base, c))
  const revisedKeys = revisedClauses.map((c) => contentKey(revised, c))
  const revisedOf = new Map<number, number>()
  const taken = new Set<number>()

  const pair = (i: number, j: number) => {
    revisedOf.set(i, j)
    taken.add(j)
  }
  const positions = (keys: readonly string[]) => {
    const map = new Map<string, number[]>()
    keys.forEach((key, k) => {
      if (key === '') return
      const list = map.get(key)
      if (list) list.push(k)
      else map.set(key, [k])
    })
    return map
  }

  // 1. Same words, as patience diff does (Bram Cohen, 2006): the clauses whose
  // words occur once in each version pair first, and those of them in order are anchors.
  const baseAt = positions(baseKeys)
  const revisedAt = positions(revisedKeys)
  for (const [key, list] of baseAt) {
    const other = revisedAt.get(key)
    if (list.length === 1 && other?.length === 1) pair(list[0]!, other[0]!)
  }
  const unique = [...revisedOf.entries()].sort((a, b) => a[0] - b[0])
  const uniqueInOrder = heaviestIncreasing(
    unique.map(([, j]) => j),
    unique.map(() => 1),
    revisedClauses.length,
  )
  const anchors = unique.filter((_, k) => uniqueInOrder.has(k))
  // Repeated words (a running footer, "Initials: ____") pair in order between two anchors, so
  // one deleted occurrence does not shift all the others; then in order over the whole text.
  const fillInOrder = (
    fromBase: number,
    toBase: number,
    fromRevised: number,
    toRevised: number,
  ) => {
    const free = new Map<string, number[]>()
    for (let j = fromRevised; j < toRevised; j += 1) {
      const key = revisedKeys[j]!
      if (taken.has(j) || key === '') continue
      const list = free.get(key)
      if (list) list.push(j)
      else free.set(key, [j])
    }
    for (let i = fromBase; i < toBase; i += 1) {
      if (revisedOf.has(i)) continue
      const j = free.get(baseKeys[i]!)?.shift()
      if (j !== undefined) pair(i, j)
    }
  }
  let previous: [number, number] = [-1, -1]
  for (const anchor of [
    ...anchors,
    [baseClauses.length, revisedClauses.length] as [number, number],
  ]) {
    fillInOrder(previous[0] + 1, anchor[0], previous[1] + 1, anchor[1])
    previous = anchor
  }
  fillInOrder(0, baseClauses.length, 0, revisedClauses.length)

  // 2 and 3. Similar words, best pairs first.
  const baseSets = baseKeys.map((k) => new Set(k.split(' ').filter((w) => w !== '')))
  const revisedSets = revisedKeys.map((k) => new Set(k.split(' ').filter((w) => w !== '')))
  const index = new Map<string, number[]>()
  revisedSets.forEach((set, j) => {
    if (taken.has(j)) return
    for (const word of set) {
      const list = index.get(word)
      if (list) list.push(j)
      else index.set(word, [j])
    }
  })
  const freeRevised = revisedClauses.length - taken.size
  const commonAt = Math.max(COMMON_WORD_CLAUSES, Math.ceil(freeRevised * COMMON_WORD_SHARE))
  const scored: { score: number; i: number; j: number }[] = []
  baseSets.forEach((set, i) => {
    if (revisedOf.has(i) || set.size === 0) return
    const shared = new Map<number, number>()
    for (const word of set) {
      const list = index.get(word)
      if (!list || list.length > commonAt) continue
      for (const j of list) shared.set(j, (shared.get(j) ?? 0) + 1)
    }
    const candidates = [...shared.entries()].sort((a, b) => b[1] - a[1]).slice(0, CANDIDATES)
    for (const [j] of candidates) {
      const score = dice(set, revisedSets[j]!)
      const sameCaption = sameHeading(baseClauses[i]!, revisedClauses[j]!)
      if (score >= (sameCaption ? MIN_SIMILARITY_SAME_CAPTION : MIN_SIMILARITY))
        scored.push({ score: score + (sameCaption ? 0.5 : 0), i, j })
    }
  })
  scored.sort((a, b) => b.score - a.score || a.i - b.i || a.j - b.j)
  for (const { i, j } of scored) {
    if (revisedOf.has(i) || taken.has(j)) continue
    revisedOf.set(i, j)
    taken.add(j)
  }

  const pairs = [...revisedOf.entries()]
    .map(([b, r]) => ({ base: b, revised: r, moved: false }))
    .sort((a, b) => a.base - b.base)
  // The fewest clauses move; among equal counts, the least text (a length never outweighs a clause).
  const weights = pairs.map(
    (p) =>
      1 + Math.min(0.5, (baseClauses[p.base]!.span.end - baseClauses[p.base]!.span.start) / 1e7),
  )
  const inOrder = heaviestIncreasing(
    pairs.map((p) => p.revised),
    weights,
    revisedClauses.length,
  )
  pairs.forEach((p, k) => (p.moved = !inOrder.has(k)))
  return pairs
}

function dice(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0
  let common = 0
  const [small, large] = a.size <= b.size ? [a, b] : [b, a]
  for (const w of small) if (large.has(w)) common += 1
  return (2 * common) / (a.size + b.size)
}

function sameHeading(a: ClauseUnit, b: ClauseUnit): boolean {
  return (
    a.heading !== null &&
    b.heading !== null &&
    words(a.heading).join(' ') === words(b.heading).join(' ')
  )
}

/**
 * The positions of the heaviest strictly increasing subsequence of `values` (each in
 * [0, size)), by total weight; a Fenwick tree of prefix maxima makes it O(n log n).
 */
function heaviestIncreasing(
  values: readonly number[],
  weights: readonly number[],
  size: number,
): Set<number> {
  const tree = new Float64Array(size + 1)
  const at = new Int32Array(size + 1).fill(-1)
  const best = new Float64Array(values.length)
  const previous = new Int32Array(values.length).fill(-1)
  values.forEach((v, k) => {
    // The best chain ending below v.
    let total = 0
    let from = -1
    for (let x = v; x > 0; x -= x & -x) {
      if (tree[x]! > total) {
        total = tree[x]!
        from = at[x]!
      }
    }
    best[k] = total + weights[k]!
    previous[k] = from
    for (let x = v + 1; x <= size; x += x & -x) {
      if (best[k]! > tree[x]!) {
        tree[x] = best[k]!
        at[x] = k
      }
    }
  })
  let end = -1
  best.forEach((b, k) => {
    if (end < 0 || b > best[end]!) end = k
  })
  const chosen = new Set<number>()
  for (let k = end; k >= 0; k = previous[k]!) chosen.add(k)
  return chosen
}
