/**
 * What one operative sentence does, as the reading layer reads it (issue 48, decision 0110): who
 * it binds or entitles, with what force, to do what, under which conditions and exceptions, and
 * whether it adds a term, amends one or deletes one.
 */

/** The force of a provision: an obligation, a permission, a prohibition, or leave not to act. */
export type Modality = 'must' | 'may' | 'must-not' | 'need-not'

/** Whether a sentence states a term, changes one ("is hereby amended") or removes one. */
export type ClauseEffect = 'adds' | 'amends' | 'deletes'

/**
 * A qualification of the provision: a consent that lifts a prohibition ("without the prior
 * written consent of X"), an "unless" or "except" carve-out, a "provided that", or a condition
 * that triggers it ("if", "upon", "in the event").
 */
export interface ClauseException {
  kind: 'consent' | 'unless' | 'except' | 'provided' | 'condition'
  /** The qualification's own words, as written. */
  text: string
  /** For a consent: the parties whose consent is needed (names from the party list). */
  of?: string[]
}

/** The reading of one sentence; see readClause. */
export interface ClauseReading {
  /** The parties the provision binds or entitles (its subject), by name; empty when none named. */
  who: string[]
  /** True when the subject is every party: "each party", "neither party", "the parties". */
  everyParty: boolean
  /** The force of the main provision; null when the sentence has none (a statement). */
  modality: Modality | null
  /**
   * True when the sentence leaves a party free rather than binding it: "is free to", "nothing in
   * this Agreement shall prevent", "shall not be precluded from" (modality is then 'may').
   */
  freedom: boolean
  /** The main verb after the modal ("disclose", "assign"), lower case; null when none. */
  action: string | null
  /** A few words after the verb: what is acted on ("Confidential Information"). */
  object: string | null
  exceptions: ClauseException[]
  effect: ClauseEffect
  /**
   * The sentence with its negated scopes blanked out (same length, so offsets hold): "without any
   * early termination penalty", "no fee shall be payable", "non-exclusive", and company forms
   * ("an unlimited liability company") that name an entity, not a liability. Rules that look for
   * what a sentence asserts read this instead of the raw text.
   */
  asserted: string
}
