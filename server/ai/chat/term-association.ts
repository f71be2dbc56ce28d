/**
 * A learned association between a question's terms and the words of the passages that answer it
 * (decision 0150): "expressly identified" is answered by sentences holding "legend", "marked" or
 * "designated as confidential", not by every sentence holding "identified" ("users be uniquely
 * identified", "purposes identified herein"). For each question term t and passage word w (both
 * termsOf stems), the weight is the log-odds ratio of w appearing in passages that are gold
 * evidence for a question holding t against passages search found for it that are not, with
 * add-one smoothing (a translation model for retrieval in the spirit of Berger & Lafferty,
 * "Information Retrieval as Statistical Translation", SIGIR 1999, reduced to a discriminative
 * table). Learned by scripts/train-answer-models.ts out of fold, split by NDA; only pairs seen at
 * least MIN_PAIR_COUNT times and with a positive weight are kept. It knows only the words of the
 * questions it was trained on (ContractNLI's seventeen): a question with none of them scores 0,
 * which the addressed model reads as "no evidence either way". Pure.
 */
import { termsOf } from './yes-no-question'

/** By question term: passage word → log-odds weight (> 0). */
export type TermAssociation = Record<string, Record<string, number>>

/**
 * Co-occurrences below this many passages are noise, not association; each question term keeps
 * its KEPT_PER_TERM strongest words (the table stays ~40 KB). Chosen on a coarse grid out of fold
 * (3/8/10 × 40/60/100/all, decision 0150): within noise of each other on accuracy, the table
 * 18 times smaller than with none cut.
 */
export const MIN_PAIR_COUNT = 10

export const KEPT_PER_TERM = 40

/** One passage search found for a question, and whether it is gold evidence for it. */
export interface AssociationExample {
  /** The question's distinct content-term stems (YesNoQuestion.terms). */
  terms: readonly string[]
  /** The passage's text. */
  text: string
  evidence: boolean
}

/** The table from `examples` (see the module's comment); weights rounded to 3 decimals. */
export function learnAssociation(examples: readonly AssociationExample[]): TermAssociation {
  const seen = new Map<string, { pos: number; neg: number }>()
  const pairs = new Map<string, { pos: number; neg: number }>()
  for (const example of examples) {
    const words = new Set(termsOf(example.text))
    for (const t of example.terms) {
      const count = seen.get(t) ?? { pos: 0, neg: 0 }
      count[example.evidence ? 'pos' : 'neg'] += 1
      seen.set(t, count)
      for (const w of words) {
        const key = `${t} ${w}`
        const pair = pairs.get(key) ?? { pos: 0, neg: 0 }
        pair[example.evidence ? 'pos' : 'neg'] += 1
        pairs.set(key, pair)
      }
    }
  }
  const rows = new Map<string, Array<[string, number]>>()
  for (const [key, pair] of pairs) {
    if (pair.pos + pair.neg < MIN_PAIR_COUNT) continue
    const [t, w] = key.split(' ') as [string, string]
    const total = seen.get(t)!
    const weight =
      Math.log((pair.pos + 1) / (total.pos + 2)) - Math.log((pair.neg + 1) / (total.neg + 2))
    if (weight <= 0) continue
    rows.set(t, [...(rows.get(t) ?? []), [w, Number(weight.toFixed(3))]])
  }
  const table: TermAssociation = {}
  for (const [t, row] of rows) {
    const kept = row.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, KEPT_PER_TERM)
    table[t] = Object.fromEntries(kept)
  }
  return table
}

/** How strongly a text is associated with a question's terms. */
export interface AssociationScore {
  /** The mean over the question's known terms of each one's strongest word (0 when none known). */
  mean: number
  /** The strongest word of any of its terms (0 when none). */
  max: number
}

export const NO_ASSOCIATION: AssociationScore = { mean: 0, max: 0 }

/**
 * The score of a passage for a question of `terms` under `table` (terms it does not know
 * skipped); `passage` is its text or, already read, the set of its termsOf stems.
 */
export function associationOf(
  table: TermAssociation | undefined,
  terms: readonly string[],
  passage: string | ReadonlySet<string>,
): AssociationScore {
  if (!table) return NO_ASSOCIATION
  const known = terms.flatMap((t) => (table[t] ? [table[t]] : []))
  if (known.length === 0) return NO_ASSOCIATION
  const words = typeof passage === 'string' ? new Set(termsOf(passage)) : passage
  const best = known.map((row) => Math.max(0, ...[...words].map((w) => row[w] ?? 0)))
  return { mean: best.reduce((s, x) => s + x, 0) / best.length, max: Math.max(...best) }
}
