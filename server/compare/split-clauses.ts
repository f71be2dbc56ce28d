/**
 * A version's clauses, read with the analyzer's own structure (decision 0146): the text's
 * sentences (segmentSentences) typed by documentStructure; a clause starts at a blank line, or on
 * a new line at a numbered provision, a heading or the sentence after one. Units tile the text
 * (see ClauseUnit), so a redline built from them loses no character.
 */
import { segmentSentences } from '../ai/analyzer/local/sentences'
import type { BlockKind } from '../ai/analyzer/local/structure/block-kind'
import { documentStructure } from '../ai/analyzer/local/structure/document-structure'
import type { ClauseUnit, TextSpan } from './comparison'

/** A numbering label at the start of a clause: "12.3", "12.", "Section 4.1", "ARTICLE IV", "(a)". */
const LABEL =
  /^(?:(?:section|article|clause|§)\s*(?:\d+(?:\.\d+)*|[IVXLC]{1,6})\.?|\d+(?:\.\d+)*\.?|\([a-zA-Z0-9]{1,4}\)|[IVXLC]{1,6}\.|[a-z]\.)(?=\s|$)/i

/** A blank line between two sentences: always a clause boundary. */
const BLANK_LINE = /\n[ \t\f\v\u00a0]*\r?\n/

/** A clause holds at most this many sentences; a longer run is cut (bounds the word diff's input). */
const MAX_SENTENCES = 40

const HEADING_KINDS: ReadonlySet<BlockKind> = new Set([
  'heading',
  'section-heading',
  'exhibit-title',
])

/**
 * The clauses of `text`, in order. Every character of `text` is in exactly one clause's `unit`
 * (the first unit starts at 0, each unit ends where the next starts, the last at text.length); a
 * blank or empty text gives one unit of kind 'page-furniture' (none for ''). Pure; never throws;
 * linear in the text's length (segmentSentences dominates).
 */
export function splitClauses(text: string): ClauseUnit[] {
  if (text.length === 0) return []
  const sentences = documentStructure(segmentSentences(text))
  if (sentences.length === 0) return [blankUnit(text)]
  const groups: (typeof sentences)[] = []
  let current: typeof sentences = []
  sentences.forEach((sentence, i) => {
    const previous = sentences[i - 1]
    if (previous && opensClause(text, previous, sentence, current.length)) {
      groups.push(current)
      current = []
    }
    current.push(sentence)
  })
  groups.push(current)
  return groups.map((group, index) => {
    const first = group[0] ?? sentences[0]!
    const last = group[group.length - 1] ?? first
    const next = groups[index + 1]?.[0]
    const span = { start: first.start, end: last.end }
    const label = LABEL.exec(first.text)
    const labelSpan = label ? { start: first.start, end: first.start + label[0].length } : null
    return {
      index,
      span,
      unit: { start: index === 0 ? 0 : first.start, end: next ? next.start : text.length },
      label: label ? label[0] : null,
      labelSpan,
      heading: headingOf(first.text, first.kind, label?.[0].length ?? 0),
      kind: first.kind,
      sentences: group.map((s): TextSpan => ({ start: s.start, end: s.end })),
    }
  })
}

function blankUnit(text: string): ClauseUnit {
  return {
    index: 0,
    span: { start: 0, end: 0 },
    unit: { start: 0, end: text.length },
    label: null,
    labelSpan: null,
    heading: null,
    kind: 'page-furniture',
    sentences: [],
  }
}

/** Whether `sentence` opens a new clause after `previous` (the current clause has `held` sentences). */
function opensClause(
  text: string,
  previous: { end: number; kind: BlockKind },
  sentence: { start: number; text: string; kind: BlockKind },
  held: number,
): boolean {
  if (held >= MAX_SENTENCES) return true
  const gap = text.slice(previous.end, sentence.start)
  if (BLANK_LINE.test(gap)) return true
  if (!gap.includes('\n')) return false
  return (
    HEADING_KINDS.has(sentence.kind) ||
    HEADING_KINDS.has(previous.kind) ||
    LABEL.test(sentence.text)
  )
}

/** A caption: a heading's text, or the inline caption of "1.1 LICENSE. Subject to …", without the label. */
function headingOf(first: string, kind: BlockKind, labelLength: number): string | null {
  const rest = first
    .slice(labelLength)
    .replace(/^[\s\-–—:.]+/, '')
    .trim()
  if (HEADING_KINDS.has(kind)) return rest.replace(/[.:]$/, '') || null
  const inline =
    /^([A-Z][\w'’&/-]*(?:[ ,;]+(?:[A-Z][\w'’&/-]*|of|and|or|the|to|for|in|on|by|with)){0,7})\.\s/.exec(
      rest,
    )
  return inline?.[1] ?? null
}
