/**
 * The shapes of a comparison of two versions of a contract (issue 46, decision 0146). Every span
 * is half-open, in UTF-16 code units (as JavaScript strings count them), into the text it names:
 * `base` spans into the base version, `revised` spans into the revised one. A change always cites
 * both versions: where one side has no text (an insertion, a deletion) its span is empty and marks
 * the place.
 */
import type { BlockKind } from '../ai/analyzer/local/structure/block-kind'

/** A half-open character range [start, end) of one version's text. */
export interface TextSpan {
  start: number
  end: number
}

/**
 * One clause of a version: a paragraph, a numbered section or a heading as the analyzer's
 * structure reads it (see splitClauses). Units tile the text: `unit` runs from the clause's start to
 * the next clause's start (its trailing blank lines included), so the units of a text, in order,
 * concatenate to the whole text.
 */
export interface ClauseUnit {
  /** Position among the version's clauses, from 0. */
  index: number
  /** The clause's own words, from its first sentence to its last (no surrounding blank lines). */
  span: TextSpan
  /** The clause and everything up to the next clause (the first unit also holds what precedes it). */
  unit: TextSpan
  /** The numbering label ("12.3", "Section 4", "(a)"), or null. */
  label: string | null
  /** Where the label stands in the text, or null. */
  labelSpan: TextSpan | null
  /** The caption ("Governing Law", "ARTICLE 5 TERMINATION" without its number), or null. */
  heading: string | null
  /** The structure's kind of the clause's first sentence. */
  kind: BlockKind
  /** The sentences of the clause (segmentSentences spans into the version's text). */
  sentences: TextSpan[]
}

/** What a change does. */
export type ChangeKind = 'inserted' | 'deleted' | 'moved' | 'modified'

/**
 * What a change that is not substantive changes: only the form, never the words. 'layout' is a
 * clause of page furniture (a page number, a running header) added or removed.
 */
export type FormatKind = 'whitespace' | 'punctuation' | 'case' | 'renumbering' | 'layout'

/** One change between the versions. */
export interface Change {
  kind: ChangeKind
  /** A whole clause (inserted, deleted, moved) or words inside an aligned clause. */
  scope: 'clause' | 'words'
  /** False for a change of form only (see `format`); a move is substantive. */
  substantive: boolean
  /** For a change of form only: what changed; null when substantive. */
  format: FormatKind | null
  /** Where the change stands in the base version (empty: the place of an insertion). */
  base: TextSpan
  /** Where the change stands in the revised version (empty: the place of a deletion). */
  revised: TextSpan
  baseText: string
  revisedText: string
  /** The clauses concerned (indices into the comparison's clause lists), null when none. */
  baseClause: number | null
  revisedClause: number | null
  /** One line on what changed in substance ("modality changed may → shall"), or null. */
  note: string | null
}

/** How a clause of one version stands to the other version. */
export type ClauseRelation = 'same' | 'format' | 'modified' | 'moved' | 'inserted' | 'deleted'

/** A clause of either version with its counterpart; one side is null for inserted and deleted. */
export interface ClausePair {
  base: number | null
  revised: number | null
  relation: ClauseRelation
}

/**
 * A piece of the merged redline stream, in reading order: accepting every change keeps `equal`,
 * `inserted` and `moveTo` pieces; rejecting every change keeps `equal`, `deleted` and `moveFrom`.
 * Moves pair a `moveFrom` and a `moveTo` by `move` (numbered from 1).
 */
export interface RedlineSegment {
  kind: 'equal' | 'inserted' | 'deleted' | 'moveFrom' | 'moveTo'
  text: string
  move?: number
}

/** The comparison of a base and a revised text; see compareTexts. */
export interface Comparison {
  base: string
  revised: string
  baseClauses: ClauseUnit[]
  revisedClauses: ClauseUnit[]
  /** Every clause of both versions once, in the revised version's order (deleted ones where they stood). */
  pairs: ClausePair[]
  /** Every change, in the revised version's order. */
  changes: Change[]
  /** The merged stream the redlines are built from (accept all → revised, reject all → base). */
  segments: RedlineSegment[]
}

/** The text that accepting every change of `segments` gives. */
export function acceptAll(segments: readonly RedlineSegment[]): string {
  return segments
    .filter((s) => s.kind === 'equal' || s.kind === 'inserted' || s.kind === 'moveTo')
    .map((s) => s.text)
    .join('')
}

/** The text that rejecting every change of `segments` gives. */
export function rejectAll(segments: readonly RedlineSegment[]): string {
  return segments
    .filter((s) => s.kind === 'equal' || s.kind === 'deleted' || s.kind === 'moveFrom')
    .map((s) => s.text)
    .join('')
}
