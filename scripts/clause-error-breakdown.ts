/**
 * Sorts the clause detector's and the risk rules' grounding failures into kinds (issue 48, decision
 * 0129), so that fixes aim at a kind of failure rather than at single documents. Used by
 * eval-cuad.ts `--breakdown`; pure, no I/O.
 *
 * A contract is given as its sentences (spans into its text, with their block kind), the located
 * labelled passages per category, the findings (clauses or risks: a span and the category claimed)
 * and, for clauses, each sentence's probability per category and the category's cite threshold.
 */
import type { Span } from '../server/ai/analyzer/types'
import { overlapsAny } from './grounding'

/** Why a finding's citation does not overlap a labelled passage of its category. */
export type UngroundedKind =
  /** The contract has no labelled passage of the category (wrong presence). */
  | 'absent-category'
  /** As absent-category, and the cited sentence is labelled with another category. */
  | 'absent-confused'
  /** The category is labelled, and the cited sentence is within two sentences of its passage. */
  | 'neighbour'
  /**
   * The category is labelled, and the cited sentence is further than two sentences from its
   * passage but in the same section (sectionOf: under the same heading or numbered section).
   */
  | 'same-section'
  /** The category is labelled elsewhere; the cited sentence is another category's passage. */
  | 'other-category'
  /** The category is labelled elsewhere; the cited sentence is nobody's passage. */
  | 'elsewhere'

/** Why a labelled passage has no finding of its category overlapping it. */
export type MissedKind =
  /** The category was not reported for the contract at all (presence false negative). */
  | 'not-reported'
  /** Every sentence of the passage is a heading, definition, recital … (never quoted). */
  | 'non-operative'
  /** Its best sentence reached the cite threshold but the three quotes went to others. */
  | 'quote-cap'
  /** Its best sentence stayed under the category's cite threshold. */
  | 'below-cite'
  /** A finding of the category cites another sentence (findings without sentence scores: risks). */
  | 'other-sentence'

/** One contract, as the breakdown needs it. */
export interface BreakdownContract {
  sentences: readonly (Span & { operative: boolean })[]
  /** Located labelled passages of a category ([] when the category is absent). */
  passages: (category: string) => Span[]
  categories: readonly string[]
  findings: readonly (Span & { category: string })[]
  /** probability(s, category) of sentence s; only used for missed passages. */
  probability?: (s: number, category: string) => number
  /** The category's cite threshold; only used for missed passages. */
  citeThreshold?: (category: string) => number
  /**
   * section[s]: the section sentence s sits in (sectionOf); absent, no finding is 'same-section'.
   */
  section?: readonly number[]
}

/** The three kinds issue 48's clause slice asks for (decision 0139), from the five above. */
export type UngroundedClass = 'presence' | 'boundary' | 'elsewhere'

/** absent-* → presence (a category the contract lacks); neighbour, same-section → boundary. */
export function ungroundedClass(kind: UngroundedKind): UngroundedClass {
  if (kind === 'absent-category' || kind === 'absent-confused') return 'presence'
  if (kind === 'neighbour' || kind === 'same-section') return 'boundary'
  return 'elsewhere'
}

/** A numbered start that opens a section: "12.", "12.3 ", "Section 5", "ARTICLE IV". */
const SECTION_START = /^\W*(?:(?:article|section)\s+[\dIVXLC]+\b|\d+(?:\.\d+)*\.?\s)/i

/**
 * Section numbers of a document's sentences (in order): a new section starts at every heading or
 * section heading and at every sentence opening with a section number ("12.3 Assignment. …",
 * "Section 5"); the sentences before the first start are section 0. Pure.
 */
export function sectionOf(sentences: readonly { kind: string; text: string }[]): number[] {
  let section = 0
  return sentences.map((sentence) => {
    const opens =
      sentence.kind === 'heading' ||
      sentence.kind === 'section-heading' ||
      SECTION_START.test(sentence.text)
    if (opens) section += 1
    return section
  })
}

/** Counts per kind, overall and per category. */
export interface Breakdown {
  ungrounded: Map<UngroundedKind, number>
  missed: Map<MissedKind, number>
  /** Per category: findings, grounded, and counts of each kind. */
  perCategory: Map<
    string,
    {
      findings: number
      grounded: number
      passages: number
      recalled: number
      kinds: Map<string, number>
    }
  >
  /** "claimed <- labelled" pairs: a finding of one category citing another's passage. */
  confusions: Map<string, number>
  /** Labelled passages by their length in sentences (1, 2, 3+), found and missed. */
  passageLength: Map<string, { found: number; missed: number }>
}

/** An empty breakdown. */
export function breakdown(): Breakdown {
  return {
    ungrounded: new Map(),
    missed: new Map(),
    perCategory: new Map(),
    confusions: new Map(),
    passageLength: new Map(),
  }
}

const NEIGHBOUR_SENTENCES = 2

/** Adds one contract's findings and passages to `into`. */
export function addToBreakdown(into: Breakdown, contract: BreakdownContract): void {
  const { sentences } = contract
  const sentencesOf = (span: Span): number[] =>
    sentences.flatMap((s, i) => (s.start < span.end && span.start < s.end ? [i] : []))
  const labelledWith = new Map<number, string[]>()
  for (const category of contract.categories) {
    for (const passage of contract.passages(category)) {
      for (const s of sentencesOf(passage)) {
        labelledWith.set(s, [...(labelledWith.get(s) ?? []), category])
      }
    }
  }
  const row = (category: string) => {
    let found = into.perCategory.get(category)
    if (!found) {
      found = { findings: 0, grounded: 0, passages: 0, recalled: 0, kinds: new Map() }
      into.perCategory.set(category, found)
    }
    return found
  }
  const bump = <K>(map: Map<K, number>, key: K) => map.set(key, (map.get(key) ?? 0) + 1)
  for (const finding of contract.findings) {
    const own = contract.passages(finding.category)
    const stats = row(finding.category)
    stats.findings += 1
    if (overlapsAny(finding, own)) {
      stats.grounded += 1
      continue
    }
    const cited = sentencesOf(finding)
    const others = [
      ...new Set(
        cited.flatMap((s) => (labelledWith.get(s) ?? []).filter((c) => c !== finding.category)),
      ),
    ]
    for (const other of others) bump(into.confusions, `${finding.category} <- ${other}`)
    let kind: UngroundedKind
    if (own.length === 0) kind = others.length > 0 ? 'absent-confused' : 'absent-category'
    else {
      const labelledSentences = own.flatMap(sentencesOf)
      const near = cited.some((s) =>
        labelledSentences.some((l) => Math.abs(l - s) <= NEIGHBOUR_SENTENCES),
      )
      const sections = contract.section
      const sameSection =
        sections !== undefined &&
        cited.some((s) => labelledSentences.some((l) => sections[l] === sections[s]))
      kind = near
        ? 'neighbour'
        : sameSection
          ? 'same-section'
          : others.length > 0
            ? 'other-category'
            : 'elsewhere'
    }
    bump(into.ungrounded, kind)
    bump(stats.kinds, kind)
  }
  for (const category of contract.categories) {
    const own = contract.findings.filter((f) => f.category === category)
    for (const passage of contract.passages(category)) {
      const stats = row(category)
      stats.passages += 1
      const inside = sentencesOf(passage)
      const length = inside.length >= 3 ? '3+' : String(inside.length)
      const lengthRow = into.passageLength.get(length) ?? { found: 0, missed: 0 }
      into.passageLength.set(length, lengthRow)
      if (overlapsAny(passage, own)) {
        stats.recalled += 1
        lengthRow.found += 1
        continue
      }
      lengthRow.missed += 1
      let kind: MissedKind
      const operative = inside.filter((s) => sentences[s]?.operative)
      if (own.length === 0) kind = 'not-reported'
      else if (operative.length === 0) kind = 'non-operative'
      else if (!contract.probability) kind = 'other-sentence'
      else {
        const best = Math.max(...operative.map((s) => contract.probability?.(s, category) ?? 0))
        kind = best >= (contract.citeThreshold?.(category) ?? 1) ? 'quote-cap' : 'below-cite'
      }
      bump(into.missed, kind)
      bump(stats.kinds, `missed:${kind}`)
    }
  }
}

/** The breakdown as text lines: totals by kind, then per category, then the top confusions. */
export function formatBreakdown(title: string, b: Breakdown): string[] {
  const lines = [`${title}: ungrounded findings by kind`]
  const total = [...b.ungrounded.values()].reduce((a, n) => a + n, 0)
  for (const [kind, n] of [...b.ungrounded].sort((x, y) => y[1] - x[1]))
    lines.push(`  ${kind.padEnd(18)} ${String(n).padStart(5)}  ${((100 * n) / total).toFixed(1)} %`)
  const classes = new Map<UngroundedClass, number>()
  for (const [kind, n] of b.ungrounded) {
    const key = ungroundedClass(kind)
    classes.set(key, (classes.get(key) ?? 0) + n)
  }
  lines.push(
    `  by class: ${(['presence', 'boundary', 'elsewhere'] as const)
      .map(
        (key) =>
          `${key} ${classes.get(key) ?? 0} (${((100 * (classes.get(key) ?? 0)) / Math.max(total, 1)).toFixed(1)} %)`,
      )
      .join(', ')}`,
  )
  const missedTotal = [...b.missed.values()].reduce((a, n) => a + n, 0)
  if (missedTotal > 0) {
    lines.push(`${title}: missed labelled passages by kind`)
    for (const [kind, n] of [...b.missed].sort((x, y) => y[1] - x[1]))
      lines.push(
        `  ${kind.padEnd(18)} ${String(n).padStart(5)}  ${((100 * n) / missedTotal).toFixed(1)} %`,
      )
    lines.push(
      `  by passage length in sentences: ${[...b.passageLength]
        .sort()
        .map(([len, r]) => `${len}: ${r.found} found / ${r.missed} missed`)
        .join(', ')}`,
    )
  }
  lines.push(`${title}: per category (grounded/findings, recalled/passages, kinds)`)
  for (const [category, r] of [...b.perCategory].sort((x, y) => x[0].localeCompare(y[0]))) {
    const kinds = [...r.kinds]
      .sort((x, y) => y[1] - x[1])
      .map(([k, n]) => `${k} ${n}`)
      .join(', ')
    lines.push(
      `  ${category.padEnd(36)} ${r.grounded}/${r.findings}  ${r.recalled}/${r.passages}  ${kinds}`,
    )
  }
  const confusions = [...b.confusions].sort((x, y) => y[1] - x[1]).slice(0, 15)
  if (confusions.length > 0) {
    lines.push(`${title}: most frequent confusions (claimed <- labelled)`)
    for (const [pair, n] of confusions) lines.push(`  ${pair} ${n}`)
  }
  return lines
}
