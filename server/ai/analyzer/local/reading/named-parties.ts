/**
 * The parties a stretch of text names, in the order it first names them (issue 48): the payee
 * after "pay", the party protected by a cap after "liability of", read the way clauseSubject
 * matches a subject (name, defined term or role, as whole words).
 */
import type { Party } from '../../types'
import { firstReference } from './clause-subject'

/** Words that name every party at once. */
const EVERY =
  /\b(?:each|either|neither|both|all)\s+(?:of\s+the\s+)?part(?:y|ies)(?:['’]s)?\b|\bthe\s+parties\b|\bno\s+party\b/i

/**
 * The names (Party.name) of the parties `text` refers to, first mentioned first, without
 * repeats; `every` when the text names every party ("each party", "the parties") before any one
 * of them. Pure; never throws.
 */
export function namedParties(
  text: string,
  parties: readonly Party[],
): { names: string[]; every: boolean } {
  const hits = parties
    .map((party) => ({ name: party.name, at: firstReference(text, party) }))
    .filter((hit) => hit.at >= 0)
    .sort((a, b) => a.at - b.at)
  const every = EVERY.exec(text)
  if (every && (hits.length === 0 || every.index < (hits[0]?.at ?? 0)))
    return { names: parties.map((p) => p.name), every: true }
  return { names: [...new Set(hits.map((hit) => hit.name))], every: false }
}

/** The label a reader knows a party by: its defined term, else its name. */
export function partyLabel(name: string, parties: readonly Party[]): string {
  return parties.find((p) => p.name === name)?.definedTerm?.text ?? name
}
