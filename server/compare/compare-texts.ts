/**
 * The comparison engine (issue 46, decision 0146): two versions of a contract, as text, to their
 * clauses (splitClauses), the clauses aligned (alignClauses: moved clauses are moves, not a
 * deletion plus an insertion), the words of each aligned pair diffed (diffUnits), every change
 * classified (inserted, deleted, moved, modified; substantive or of form only) and cited in both
 * versions, with a one-line note where the reading layer or the clause model says what changed.
 */
import { alignClauses, type AlignedPair } from './align-clauses'
import { clauseNote, wordsNote } from './change-notes'
import type {
  Change,
  ClausePair,
  ClauseUnit,
  Comparison,
  RedlineSegment,
  TextSpan,
} from './comparison'
import { splitClauses } from './split-clauses'
import { diffUnits, type WordHunk } from './word-changes'

/** What compareTexts may skip. */
export interface CompareOptions {
  /** Whether to write the one-line notes (the clause model and the reading layer; default true). */
  notes?: boolean
}

/**
 * Compares `base` with `revised`. The result's `segments` rebuild both texts exactly
 * (acceptAll → revised, rejectAll → base); its `changes` are in the revised version's order, a
 * deleted clause where it stood. Pure; never throws; an empty text on either side gives every
 * clause of the other as inserted or deleted. Time about linear in the texts' length for
 * versions that share most clauses; each pair's word diff is bounded (diffUnits).
 */
export function compareTexts(
  base: string,
  revised: string,
  options: CompareOptions = {},
): Comparison {
  const notes = options.notes ?? true
  const baseClauses = splitClauses(base)
  const revisedClauses = splitClauses(revised)
  const aligned = alignClauses(base, baseClauses, revised, revisedClauses)
  const byBase = new Map<number, AlignedPair>(aligned.map((p) => [p.base, p]))
  const byRevised = new Map<number, AlignedPair>(aligned.map((p) => [p.revised, p]))
  const anchors = aligned.filter((p) => !p.moved)

  const segments: RedlineSegment[] = []
  const changes: Change[] = []
  const pairs: ClausePair[] = []
  const moveIds = new Map<number, number>()
  const moveOf = (basePosition: number) => {
    let id = moveIds.get(basePosition)
    if (id === undefined) {
      id = moveIds.size + 1
      moveIds.set(basePosition, id)
    }
    return id
  }
  const emit = (segment: RedlineSegment) => {
    if (segment.text === '') return
    const last = segments[segments.length - 1]
    if (last && last.kind === segment.kind && last.move === segment.move) last.text += segment.text
    else segments.push({ ...segment })
  }
  const ctx: Context = {
    base,
    revised,
    baseClauses,
    revisedClauses,
    notes,
    renumbered: renumbering(aligned, baseClauses, revisedClauses),
  }

  let nextBase = 0
  let nextRevised = 0
  const region = (toBase: number, toRevised: number) => {
    // Where this region starts in each version: the place of an insertion or a deletion.
    const basePoint = unitStart(baseClauses, nextBase, base.length)
    const revisedPoint = unitStart(revisedClauses, nextRevised, revised.length)
    for (let i = nextBase; i < toBase; i += 1) {
      const unit = baseClauses[i]!
      const text = base.slice(unit.unit.start, unit.unit.end)
      if (byBase.has(i)) {
        emit({ kind: 'moveFrom', text, move: moveOf(i) })
        continue
      }
      emit({ kind: 'deleted', text })
      pairs.push({ base: i, revised: null, relation: 'deleted' })
      changes.push(
        clauseChange(ctx, 'deleted', unit, null, { start: revisedPoint, end: revisedPoint }),
      )
    }
    for (let j = nextRevised; j < toRevised; j += 1) {
      const unit = revisedClauses[j]!
      const text = revised.slice(unit.unit.start, unit.unit.end)
      const pair = byRevised.get(j)
      if (pair) {
        emit({ kind: 'moveTo', text, move: moveOf(pair.base) })
        const from = baseClauses[pair.base]!
        pairs.push({ base: pair.base, revised: j, relation: 'moved' })
        changes.push({
          kind: 'moved',
          scope: 'clause',
          substantive: true,
          format: null,
          base: { ...from.span },
          revised: { ...unit.span },
          baseText: base.slice(from.span.start, from.span.end),
          revisedText: revised.slice(unit.span.start, unit.span.end),
          baseClause: pair.base,
          revisedClause: j,
          note: null,
        })
        changes.push(...pairChanges(ctx, from, unit).changes)
        continue
      }
      emit({ kind: 'inserted', text })
      pairs.push({ base: null, revised: j, relation: 'inserted' })
      changes.push(clauseChange(ctx, 'inserted', null, unit, { start: basePoint, end: basePoint }))
    }
  }

  for (const anchor of anchors) {
    region(anchor.base, anchor.revised)
    const from = baseClauses[anchor.base]!
    const to = revisedClauses[anchor.revised]!
    const { changes: found, segments: pieces } = pairChanges(ctx, from, to)
    for (const piece of pieces) emit(piece)
    changes.push(...found)
    pairs.push({
      base: anchor.base,
      revised: anchor.revised,
      relation:
        found.length === 0 ? 'same' : found.some((c) => c.substantive) ? 'modified' : 'format',
    })
    nextBase = anchor.base + 1
    nextRevised = anchor.revised + 1
  }
  region(baseClauses.length, revisedClauses.length)
  return { base, revised, baseClauses, revisedClauses, pairs, changes, segments }
}

interface Context {
  base: string
  revised: string
  baseClauses: readonly ClauseUnit[]
  revisedClauses: readonly ClauseUnit[]
  notes: boolean
  /** Each section number that changed, base → revised ("5.2" → "5.1"), from the aligned pairs. */
  renumbered: ReadonlyMap<string, string>
}

/** The number of a label: "Section 5.2" → "5.2", "5." → "5"; null for "(a)" and the like. */
function labelNumber(label: string | null): string | null {
  return label ? (/(\d+(?:\.\d+)*)\.?$/.exec(label)?.[1] ?? null) : null
}

/** The section numbers that the aligned pairs changed (a number given two ways is left out). */
function renumbering(
  aligned: readonly AlignedPair[],
  baseClauses: readonly ClauseUnit[],
  revisedClauses: readonly ClauseUnit[],
): Map<string, string> {
  const map = new Map<string, string>()
  const conflicting = new Set<string>()
  for (const pair of aligned) {
    const from = labelNumber(baseClauses[pair.base]!.label)
    const to = labelNumber(revisedClauses[pair.revised]!.label)
    if (!from || !to || from === to) continue
    if (map.has(from) && map.get(from) !== to) conflicting.add(from)
    map.set(from, to)
  }
  for (const number of conflicting) map.delete(number)
  return map
}

/**
 * A cross-reference's number, after its "Section", "Article", "clause" or "§", first of a list or
 * later in one ("Sections 3 and 6", "Sections 4.1, 4.2 or 7").
 */
const REFERENCE_BEFORE =
  /\b(?:sections?|articles?|clauses?|paragraphs?|§§?)\s*(?:\d+(?:\.\d+)*(?:\([a-z0-9]{1,4}\))*\s*(?:,|and|or|to|through)\s*){0,4}$/i

/**
 * Whether a words hunk only follows a renumbering: "Section 5.2" → "Section 5.1" where section
 * 5.2 of the base is 5.1 of the revised version.
 */
function followsRenumbering(ctx: Context, hunk: WordHunk): boolean {
  const before = ctx.base.slice(hunk.base.start, hunk.base.end)
  const after = ctx.revised.slice(hunk.revised.start, hunk.revised.end)
  if (!/^\d+(?:\.\d+)*$/.test(before) || ctx.renumbered.get(before) !== after) return false
  return (
    REFERENCE_BEFORE.test(ctx.base.slice(Math.max(0, hunk.base.start - 60), hunk.base.start)) &&
    REFERENCE_BEFORE.test(
      ctx.revised.slice(Math.max(0, hunk.revised.start - 60), hunk.revised.start),
    )
  )
}

function unitStart(clauses: readonly ClauseUnit[], index: number, length: number): number {
  return clauses[index]?.unit.start ?? length
}

/** The changes and redline pieces of an aligned pair (in place or moved). */
function pairChanges(
  ctx: Context,
  from: ClauseUnit,
  to: ClauseUnit,
): { changes: Change[]; segments: RedlineSegment[] } {
  const { base, revised } = ctx
  const diff = diffUnits(base, from.unit, revised, to.unit, from.labelSpan, to.labelSpan)
  const changes = diff.hunks.map((hunk) => wordsChange(ctx, hunk, from, to))
  return { changes, segments: diff.segments }
}

function wordsChange(ctx: Context, hunk: WordHunk, from: ClauseUnit, to: ClauseUnit): Change {
  const { base, revised } = ctx
  const format = hunk.format ?? (followsRenumbering(ctx, hunk) ? 'renumbering' : null)
  const substantive = format === null
  return {
    kind: hunk.kind,
    scope: 'words',
    substantive,
    format,
    base: hunk.base,
    revised: hunk.revised,
    baseText: base.slice(hunk.base.start, hunk.base.end),
    revisedText: revised.slice(hunk.revised.start, hunk.revised.end),
    baseClause: from.index,
    revisedClause: to.index,
    note:
      substantive && ctx.notes ? wordsNote(base, hunk.base, from, revised, hunk.revised, to) : null,
  }
}

/**
 * A whole clause inserted or deleted; page furniture (a page number, a running header) and a
 * clause without a letter or digit (a rule) are form.
 */
function clauseChange(
  ctx: Context,
  kind: 'inserted' | 'deleted',
  from: ClauseUnit | null,
  to: ClauseUnit | null,
  point: TextSpan,
): Change {
  const { base, revised } = ctx
  const unit = (from ?? to)!
  const text = from ? base : revised
  const own = text.slice(unit.span.start, unit.span.end)
  const layout = unit.kind === 'page-furniture'
  const substantive = !layout && /[\p{L}\p{N}]/u.test(own)
  return {
    kind,
    scope: 'clause',
    substantive,
    format: substantive ? null : layout ? 'layout' : 'whitespace',
    base: from ? { ...from.span } : point,
    revised: to ? { ...to.span } : point,
    baseText: from ? own : '',
    revisedText: to ? own : '',
    baseClause: from?.index ?? null,
    revisedClause: to?.index ?? null,
    note: substantive && ctx.notes ? clauseNote(text, unit, kind === 'inserted') : null,
  }
}
