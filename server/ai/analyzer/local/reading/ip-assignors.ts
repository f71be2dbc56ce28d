/**
 * Who gives up intellectual property in a sentence that moves it: the assigning party, not the one
 * that receives it (issue 48: "the party receiving IP as the one assigning it" was a wrong bearer).
 * "X hereby assigns to Y" → X; "… shall be the sole property of Y", "… shall vest in Y", "Y shall
 * be the sole owner of …" → every party but Y.
 */
import type { Party } from '../../types'
import { clauseSubject } from './clause-subject'
import { readClause } from './read-clause'

/** A verb that moves ownership from its subject. */
const MOVES = /^(?:assigns?|transfers?|conveys?|sells?|grants?)$/i

/** The receiver named after "property of", "vest in", "belong to". */
const RECEIVER =
  /\b(?:property|owner(?:ship)?)\s+of\s+([^,.;]{1,60})|\bvest(?:s|ed)?\s+(?:exclusively\s+|solely\s+|absolutely\s+)?in\s+([^,.;]{1,60})|\bbelongs?\s+(?:exclusively\s+|solely\s+)?to\s+([^,.;]{1,60})/i

/** The subject receives: "Y shall own", "Y shall be the (sole) owner of". */
const SUBJECT_RECEIVES =
  /\b(?:shall|will)\s+(?:solely\s+|exclusively\s+)?own\b|\b(?:shall|will|is)\s+(?:be\s+)?the\s+(?:sole\s+(?:and\s+exclusive\s+)?|exclusive\s+)?owner\b/i

/**
 * The names of the parties that assign or give up the intellectual property `text` (one sentence)
 * moves; empty when the sentence names neither side. Pure; never throws.
 */
export function ipAssignors(text: string, parties: readonly Party[]): string[] {
  const reading = readClause(text, parties)
  if (reading.action && MOVES.test(reading.action) && reading.who.length > 0) return reading.who
  // "Y shall be the sole owner of …" names its receiver as subject; otherwise the receiver follows
  // "property of", "vest in", "belong to".
  const named = RECEIVER.exec(text)
  const receivers =
    SUBJECT_RECEIVES.test(text) && reading.who.length > 0
      ? reading.who
      : named
        ? clauseSubject(named[1] ?? named[2] ?? named[3] ?? '', parties).who
        : []
  if (receivers.length > 0 && receivers.length < parties.length) {
    return parties.map((p) => p.name).filter((name) => !receivers.includes(name))
  }
  return reading.who
}
