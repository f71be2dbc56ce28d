/**
 * Which side a risk falls on: the parties a passage binds (read from who the passage makes its
 * grammatical subject: "the Distributor shall not …", "Either party may …"), and the risk's
 * severity oriented to the firm's own client ("our party").
 */
import type { Party, Risk, RiskOrientation, Severity } from '../types'

/** Words that make every party the subject ("Each party shall …", "Neither party may …"). */
const ALL_PARTIES =
  /^(?:[^.;]{0,40}?\b)?(?:each|either|neither|both|the)\s+part(?:y|ies)\b|\bthe\s+parties\b[^.;]{0,30}\b(?:shall|will|agree|may)\b/i

/** The modal or verb after which a sentence's subject has been named. */
const VERB = /\b(?:shall|will|agrees?|may|must|covenants?|undertakes?|hereby|is|are)\b/i

/**
 * The names of the parties that `text` makes its subject: the party referred to (by name,
 * defined term or role) before the sentence's first verb; every party for "each party",
 * "either party", "neither party". Empty when no party is named there.
 */
export function subjectParties(text: string, parties: readonly Party[]): string[] {
  const verb = VERB.exec(text)
  const head = verb ? text.slice(0, verb.index + verb[0].length) : text.slice(0, 200)
  if (ALL_PARTIES.test(head)) return parties.map((p) => p.name)
  let best: { party: Party; at: number } | null = null
  for (const party of parties) {
    for (const reference of references(party)) {
      const at = indexOfWord(head, reference)
      if (at >= 0 && (!best || at < best.at)) best = { party, at }
    }
  }
  return best ? [best.party.name] : []
}

/**
 * The bearer named when the contract's parties could not be read and the passage names no subject
 * of its own: every party, so the risk is 'mutual' (orientRisks says so, with its reason).
 */
export const EVERY_PARTY = 'every party'

/** A promise's verb: what follows the subject of an obligation or a right. */
const MODAL = /\b(?:shall|will|must|may|agrees?|undertakes?|covenants?|hereby)\b/i

/** Capitalised words that open a sentence without naming anyone ("IN NO EVENT", "Either Party"). */
const NO_SUBJECT =
  /^(?:in|no|event|the|this|that|these|any|all|notwithstanding|if|upon|during|subject|except|each|either|neither|both|party|parties|agreement|section|article|clause|it|such)$/i

/**
 * The term a sentence makes its subject when the parties are unknown: the last run of one to four
 * capitalised words before its first verb ("ORBITEX shall", "2. Indemnity. Franchisee agrees" →
 * "Franchisee"; "Change of Control SCIEN will" → "SCIEN"), brackets left out; null when there is none or it names no one ("IN NO EVENT").
 */
export function subjectTerm(text: string): string | null {
  const verb = MODAL.exec(text)
  if (!verb) return null
  const head = `${text.slice(0, verb.index).replace(/\([^()]*\)/g, ' ')} `
  const run = /(?:[\p{Lu}][\p{L}\p{N}&.'’-]*\s+){1,4}$/u.exec(head)?.[0] ?? ''
  const last = run
    .split(/\.\s+/)
    .map((piece) => piece.trim())
    .filter((piece) => piece !== '')
    .pop()
  const all = (last ?? '').split(/\s+/).filter((word) => word !== '' && !NO_SUBJECT.test(word))
  // "Change of Control SCIEN will": a caption's words before a name in capitals are not the name.
  const capitals = all.findIndex((word) => /^[\p{Lu}\p{N}&.'’-]{2,}$/u.test(word))
  const words = capitals > 0 ? all.slice(capitals) : all
  return words.length > 0 ? words.join(' ') : null
}

/** The other parties: those not in `names`. */
export function otherParties(names: readonly string[], parties: readonly Party[]): string[] {
  return parties.map((p) => p.name).filter((name) => !names.includes(name))
}

/**
 * Adds the side fields to a risk: `binds`, the severities for either side, and, when `ourParty`
 * names one of the parties, the oriented `severity` and `orientation`. A risk that binds every
 * party is 'mutual' and keeps its severity.
 */
export function orientRisk(
  risk: Risk,
  binds: readonly string[],
  parties: readonly Party[],
  severities: { ifBindsUs: Severity; ifBindsThem: Severity },
  ourParty: string | undefined,
): Risk {
  if (binds.length === 0) return risk
  const oriented: Risk = {
    ...risk,
    binds: [...binds],
    severityIfBindsUs: severities.ifBindsUs,
    severityIfBindsThem: severities.ifBindsThem,
  }
  const ours = ourParty ? matchParty(ourParty, parties) : null
  if (!ours) return oriented
  const orientation: RiskOrientation =
    binds.length === parties.length && parties.length > 1
      ? 'mutual'
      : binds.includes(ours.name)
        ? 'binds-us'
        : 'binds-them'
  const severity =
    orientation === 'binds-us'
      ? severities.ifBindsUs
      : orientation === 'binds-them'
        ? severities.ifBindsThem
        : risk.severity
  return { ...oriented, orientation, severity }
}

/** The party that `name` refers to (its name, defined term or role; case and punctuation ignored). */
export function matchParty(name: string, parties: readonly Party[]): Party | null {
  const wanted = comparable(name)
  if (wanted === '') return null
  return (
    parties.find((p) => references(p).some((ref) => comparable(ref) === wanted)) ??
    parties.find((p) => {
      const have = comparable(p.name)
      return have.includes(wanted) || wanted.includes(have)
    }) ??
    null
  )
}

function references(party: Party): string[] {
  return [party.name, party.definedTerm?.text, party.role].filter(
    (ref): ref is string => typeof ref === 'string' && ref.length > 1,
  )
}

function comparable(value: string): string {
  return value
    .toLowerCase()
    .replace(/^the\s+/, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
}

function indexOfWord(text: string, word: string): number {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+')
  const m = new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'u').exec(text)
  return m ? m.index : -1
}
