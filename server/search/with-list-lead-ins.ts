/**
 * An enumerated list's lead-in travels with its items (decision 85). Contracts state one provision
 * as a lead-in ending with a colon and items that complete it ("Each party may disclose the
 * Confidential Information of the other party:" / "(a) to its employees …;" / "(b) where required
 * by law."): an item alone does not say who may do what, and the lead-in alone says nothing about
 * the question, so a search finds the item and misses the lead-in (ContractNLI dev: 163 of 1,228
 * evidence spans are lead-ins, 133 of them outside the top 5). The same idea as parent-document
 * or "small-to-big" retrieval (a hit brings back the larger unit it belongs to), here with the
 * drafting structure as the unit.
 */

/** How far back a lead-in is looked for: a list of up to six items before the hit. */
export const LEAD_IN_REACH = 6

/** A lead-in ends with a colon. */
const LEAD_IN_END = /:\s*$/
/** A non-final list item ends with ';', ',' or a joining 'and' / 'or' ("…; and", "…, or"). */
const ITEM_END = /(?:[;,]|\b(?:and|or))\s*$/i

interface Passage {
  id: string
  documentId: string
  ordinal: number
  content: string
  score: number
}

/**
 * The ordinal of `hit`'s lead-in among `before` (passages of its document), or null: the nearest
 * earlier passage ending with a colon, when every passage between them ends like a non-final
 * list item and it lies within LEAD_IN_REACH. A hit that is itself a lead-in has none. Pure.
 */
export function leadInOf(hit: Passage, before: ReadonlyMap<number, string>): number | null {
  if (LEAD_IN_END.test(hit.content)) return null
  for (let ordinal = hit.ordinal - 1; ordinal >= hit.ordinal - LEAD_IN_REACH; ordinal -= 1) {
    const content = before.get(ordinal)
    if (content === undefined) return null
    if (LEAD_IN_END.test(content)) return ordinal
    if (!ITEM_END.test(content)) return null
  }
  return null
}

/**
 * `hits` (best first) with each hit's list lead-in placed right after it, scored as the hit,
 * unless it already ranks higher; cut to `k`. `context` holds the passages up to LEAD_IN_REACH
 * before each hit in its document (any order, repeats allowed). Pure; never throws.
 */
export function withListLeadIns<T extends Passage>(
  hits: readonly T[],
  context: readonly T[],
  k: number,
): T[] {
  const byPlace = new Map<string, T>()
  for (const passage of context) byPlace.set(`${passage.documentId}:${passage.ordinal}`, passage)
  const placed = new Set<string>()
  const out: T[] = []
  for (const hit of hits) {
    if (placed.has(hit.id)) continue
    out.push(hit)
    placed.add(hit.id)
    const before = new Map<number, string>()
    for (let ordinal = hit.ordinal - LEAD_IN_REACH; ordinal < hit.ordinal; ordinal += 1) {
      const passage = byPlace.get(`${hit.documentId}:${ordinal}`)
      if (passage) before.set(ordinal, passage.content)
    }
    const leadIn = leadInOf(hit, before)
    const passage = leadIn === null ? undefined : byPlace.get(`${hit.documentId}:${leadIn}`)
    if (passage && !placed.has(passage.id)) {
      out.push({ ...passage, score: hit.score })
      placed.add(passage.id)
    }
  }
  return out.slice(0, k)
}
