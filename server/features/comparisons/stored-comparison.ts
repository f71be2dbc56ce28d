/**
 * A comparison as stored in `comparisons.result` and answered by the API (issue 46, decision
 * 0149): what compareTexts returns (server/compare/comparison.ts), bounded. The two texts are not
 * copied (they are the documents' `content`; every span is a half-open range of UTF-16 code units
 * into one of them); clauses keep their span, label and caption (not their sentences); each
 * change's quoted texts are cut at MAX_QUOTE_CHARACTERS (`textsCut` says whether any was: the
 * spans stay whole); the redline stream is kept as the lengths of its pieces, which rebuild it
 * from the two texts (accepting every piece gives the revised text, rejecting every piece the
 * base). `baseSha256` and `revisedSha256` name the texts compared, so a redline is never built
 * from a text that changed since (a document read again by OCR).
 */
import { createHash } from 'node:crypto'
import { z } from 'zod'
import type { Comparison, RedlineSegment } from '../../compare/comparison'
import { AppError } from '../../errors/app-error'

/** Characters of a change's quoted base or revised text kept (the rest: by its span). */
export const MAX_QUOTE_CHARACTERS = 600

const Span = z
  .object({ start: z.number().int().min(0), end: z.number().int().min(0) })
  .describe('Half-open range [start, end) of UTF-16 code units into that version’s text')

const Clause = z.object({
  span: Span.describe('The clause’s own words, no surrounding blank lines'),
  label: z.string().nullable().describe('Its numbering ("12.3", "Section 4"), or null'),
  heading: z.string().nullable().describe('Its caption, or null'),
})

export const StoredChange = z
  .object({
    kind: z.enum(['inserted', 'deleted', 'moved', 'modified']),
    scope: z.enum(['clause', 'words']).describe('A whole clause, or words inside aligned clauses'),
    substantive: z.boolean().describe('False for a change of form only (see `format`)'),
    format: z
      .enum(['whitespace', 'punctuation', 'case', 'renumbering', 'layout'])
      .nullable()
      .describe('What a change of form changes; null when substantive'),
    base: Span.describe('Where it stands in the base version (empty: where an insertion goes)'),
    revised: Span.describe('Where it stands in the revised version (empty: where a deletion was)'),
    baseText: z.string().describe('The base text of the change, cut at 600 characters'),
    revisedText: z.string().describe('The revised text of the change, cut at 600 characters'),
    baseClause: z.number().int().nullable().describe('Index into `baseClauses`, or null'),
    revisedClause: z.number().int().nullable().describe('Index into `revisedClauses`, or null'),
    note: z
      .string()
      .nullable()
      .describe('One line on what changed in substance ("30 days → 60 days"), or null'),
  })
  .meta({ id: 'ComparisonChange' })
export type StoredChange = z.infer<typeof StoredChange>

const Segment = z.object({
  kind: z.enum(['equal', 'inserted', 'deleted', 'moveFrom', 'moveTo']),
  length: z.number().int().min(1),
  move: z.number().int().min(1).optional().describe('Pairs a moveFrom with its moveTo'),
})

export const StoredComparison = z
  .object({
    baseLength: z.number().int().min(0),
    revisedLength: z.number().int().min(0),
    baseSha256: z.string(),
    revisedSha256: z.string(),
    baseClauses: z.array(Clause),
    revisedClauses: z.array(Clause),
    pairs: z
      .array(
        z.object({
          base: z.number().int().nullable(),
          revised: z.number().int().nullable(),
          relation: z.enum(['same', 'format', 'modified', 'moved', 'inserted', 'deleted']),
        }),
      )
      .describe('Every clause of both versions once, in the revised order (deleted ones in place)'),
    changes: z.array(StoredChange).describe('Every change, in the revised version’s order'),
    segments: z
      .array(Segment)
      .describe(
        'The redline stream in reading order, as lengths: equal pieces advance both texts, inserted and moveTo the revised one, deleted and moveFrom the base one',
      ),
    textsCut: z.boolean().describe('Whether any change’s quoted text was cut'),
  })
  .meta({ id: 'ComparisonResult' })
export type StoredComparison = z.infer<typeof StoredComparison>

/** The SHA-256 of a text (its UTF-8 bytes), hex. */
export function textSha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex')
}

const cut = (text: string) =>
  text.length > MAX_QUOTE_CHARACTERS ? `${text.slice(0, MAX_QUOTE_CHARACTERS - 1)}…` : text

/** The stored form of `comparison` (see the module comment). Pure. */
export function storeComparison(comparison: Comparison): StoredComparison {
  const clause = (c: Comparison['baseClauses'][number]) => ({
    span: { start: c.span.start, end: c.span.end },
    label: c.label,
    heading: c.heading,
  })
  let textsCut = false
  const changes = comparison.changes.map((change) => {
    if (
      change.baseText.length > MAX_QUOTE_CHARACTERS ||
      change.revisedText.length > MAX_QUOTE_CHARACTERS
    )
      textsCut = true
    return {
      kind: change.kind,
      scope: change.scope,
      substantive: change.substantive,
      format: change.format,
      base: { start: change.base.start, end: change.base.end },
      revised: { start: change.revised.start, end: change.revised.end },
      baseText: cut(change.baseText),
      revisedText: cut(change.revisedText),
      baseClause: change.baseClause,
      revisedClause: change.revisedClause,
      note: change.note,
    }
  })
  return {
    baseLength: comparison.base.length,
    revisedLength: comparison.revised.length,
    baseSha256: textSha256(comparison.base),
    revisedSha256: textSha256(comparison.revised),
    baseClauses: comparison.baseClauses.map(clause),
    revisedClauses: comparison.revisedClauses.map(clause),
    pairs: comparison.pairs.map((p) => ({
      base: p.base,
      revised: p.revised,
      relation: p.relation,
    })),
    changes,
    segments: comparison.segments.map((s) => ({
      kind: s.kind,
      length: s.text.length,
      ...(s.move === undefined ? {} : { move: s.move }),
    })),
    textsCut,
  }
}

/** The counts of a stored comparison: substantive changes (moves apart), form only, moves. */
export function comparisonCounts(stored: Pick<StoredComparison, 'changes'>) {
  let substantiveChanges = 0
  let formatChanges = 0
  let moves = 0
  for (const change of stored.changes) {
    if (change.kind === 'moved') moves += 1
    else if (change.substantive) substantiveChanges += 1
    else formatChanges += 1
  }
  return { substantiveChanges, formatChanges, moves }
}

/**
 * The redline stream of `stored` rebuilt from the texts it compared. Throws 409
 * `comparison_stale` when either text is not the one compared (its SHA-256 differs).
 */
export function rebuildSegments(
  stored: StoredComparison,
  base: string,
  revised: string,
): RedlineSegment[] {
  if (textSha256(base) !== stored.baseSha256 || textSha256(revised) !== stored.revisedSha256)
    throw new AppError(
      'comparison_stale',
      'A document of this comparison has changed since it was compared. Compare the two documents again.',
    )
  let b = 0
  let r = 0
  return stored.segments.map((segment) => {
    let text: string
    if (segment.kind === 'equal' || segment.kind === 'deleted' || segment.kind === 'moveFrom') {
      text = base.slice(b, b + segment.length)
      b += segment.length
      if (segment.kind === 'equal') r += segment.length
    } else {
      text = revised.slice(r, r + segment.length)
      r += segment.length
    }
    return segment.move === undefined
      ? { kind: segment.kind, text }
      : { kind: segment.kind, text, move: segment.move }
  })
}
