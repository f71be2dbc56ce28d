/**
 * Who a provision binds or entitles: the party or parties named as the subject of its main verb,
 * read from the words just before the modal (issue 48: "Upon request of the Company, the
 * Distributor shall …" binds the Distributor, "The Company and the Distributor shall …" both).
 */
import type { Party } from '../../types'

/** Words that make every party the subject. */
const EVERY =
  /\b(?:each|either|neither|both|all)\s+(?:of\s+the\s+)?part(?:y|ies)\b|\bthe\s+parties\b|\bno\s+party\b|\bparties\s+hereto\b/i

/** Where a clause before the subject ends: commas, semicolons, colons, "that", a closing bracket. */
const BOUNDARY = /[,;:]|\bthat\b/i

/**
 * The subject of the words `head` (a sentence up to its main modal): the parties named in its last
 * clause that names any, read backwards from the modal (so a leading "Upon request of X," or a
 * caption is passed over); `every` when that clause says "each party", "neither party", "the
 * parties". Parties are matched by name, defined term or role, as whole words. Pure.
 */
export function clauseSubject(
  head: string,
  parties: readonly Party[],
): { who: string[]; every: boolean } {
  const segments = head.replace(/\([^()]*\)/g, ' ').split(BOUNDARY)
  for (let i = segments.length - 1; i >= 0; i -= 1) {
    const segment = segments[i] ?? ''
    if (EVERY.test(segment)) return { who: parties.map((p) => p.name), every: true }
    const named = parties
      .map((party) => ({ party, at: firstReference(segment, party) }))
      .filter((hit) => hit.at >= 0)
      .sort((a, b) => a.at - b.at)
      .map((hit) => hit.party.name)
    if (named.length > 0) return { who: named, every: false }
  }
  return { who: [], every: false }
}

/** Where `text` first names `party` (name, defined term or role), or -1. */
export function firstReference(text: string, party: Party): number {
  const references = [party.name, party.definedTerm?.text, party.role].filter(
    (ref): ref is string => typeof ref === 'string' && ref.length > 1,
  )
  let best = -1
  for (const reference of references) {
    const escaped = reference.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+')
    const found = new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'u').exec(text)
    if (found && (best < 0 || found.index < best)) best = found.index
  }
  return best
}
