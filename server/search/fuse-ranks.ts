/**
 * Reciprocal rank fusion in JavaScript, for hybrid search's halves run on two connections
 * (hybrid-search.ts, decision 0092): the same scores and order as its one statement's SQL
 * fusion, so both paths return the same ranked passages.
 */

/** The RRF constant of Cormack, Clarke & Büttcher (SIGIR 2009). */
export const RRF_K = 60

/** One ranked candidate of a half: `r` = 1 for its best (PostgreSQL's bigint arrives as a string). */
export interface RankedId {
  id: string
  r: number | string
}

/**
 * The `k` best ids of `lists` by score = Σ 1 / (RRF_K + r) over the lists holding each id, best
 * first, ties by id ascending. Ids are lower-case uuids, whose string order is PostgreSQL's uuid
 * order, and two float additions commute exactly, so this is the SQL fusion's result bit for bit.
 */
export function fuseRanks(
  lists: ReadonlyArray<readonly RankedId[]>,
  k: number,
): Array<{ id: string; score: number }> {
  const scores = new Map<string, number>()
  for (const list of lists)
    for (const { id, r } of list) scores.set(id, (scores.get(id) ?? 0) + 1 / (RRF_K + Number(r)))
  return [...scores]
    .map(([id, score]) => ({ id, score }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, k)
}
