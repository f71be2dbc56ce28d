/**
 * Word-level differences inside two aligned clauses (decision 0146): both units are cut into
 * tokens (runs of letters and digits, "1,000.00" and "5.2" kept whole; single punctuation marks;
 * runs of whitespace) and diffed with jsdiff's Myers diff (`diff` package, Myers 1986, "An O(ND)
 * Difference Algorithm and Its Variations"). The edit script gives both the redline's pieces
 * (every character of both units, so accept and reject rebuild them exactly) and the hunks, each
 * classified as substantive or as a change of form only.
 */
import { diffArrays } from 'diff'
import type { FormatKind, RedlineSegment, TextSpan } from './comparison'

/** A token of a unit: its text and where it starts in the version's text. */
interface Token {
  text: string
  start: number
}

/** One run of differences inside a clause pair, with its spans in both texts. */
export interface WordHunk {
  kind: 'inserted' | 'deleted' | 'modified'
  base: TextSpan
  revised: TextSpan
  /** Null when substantive; else what of the form changed. */
  format: FormatKind | null
}

/** The redline pieces and hunks of one clause pair; see diffUnits. */
export interface UnitDiff {
  segments: RedlineSegment[]
  hunks: WordHunk[]
}

/**
 * The diff gives up past this many edits (tokens) and the pair is redlined as one replacement:
 * it bounds the quadratic worst case of two unrelated long texts (jsdiff's `maxEditLength`).
 */
const MAX_EDIT_LENGTH = 4_000

const TOKEN = /\s+|[\p{L}\p{N}]+(?:[.,'’][\p{L}\p{N}]+)*|[^\s\p{L}\p{N}]/gu

function tokenize(text: string, span: TextSpan): Token[] {
  const tokens: Token[] = []
  const slice = text.slice(span.start, span.end)
  for (const m of slice.matchAll(TOKEN))
    tokens.push({ text: m[0], start: span.start + (m.index ?? 0) })
  return tokens
}

const isSpace = (t: Token) => /^\s/.test(t.text)

/** Tokens that never separate two changes: spacing and round brackets. */
const isJoiner = (t: Token) => isSpace(t) || t.text === '(' || t.text === ')'

/**
 * The differences of `base` over `baseSpan` and `revised` over `revisedSpan`. `baseLabel` and
 * `revisedLabel` are the clauses' numbering labels: a change inside both is a renumbering.
 * Segments concatenate to both inputs (accept → revised slice, reject → base slice). Pure; never
 * throws; bounded by MAX_EDIT_LENGTH.
 */
export function diffUnits(
  base: string,
  baseSpan: TextSpan,
  revised: string,
  revisedSpan: TextSpan,
  baseLabel: TextSpan | null = null,
  revisedLabel: TextSpan | null = null,
): UnitDiff {
  const a = tokenize(base, baseSpan)
  const b = tokenize(revised, revisedSpan)
  const parts = diffArrays(
    a.map((t) => t.text),
    b.map((t) => t.text),
    { maxEditLength: MAX_EDIT_LENGTH },
  )
  if (!parts) return wholeReplacement(base, baseSpan, revised, revisedSpan)
  const segments: RedlineSegment[] = []
  /** Token runs [from, to) of each hunk, before merging. */
  const runs: { aFrom: number; aTo: number; bFrom: number; bTo: number }[] = []
  let i = 0
  let j = 0
  let open: (typeof runs)[number] | null = null
  for (const part of parts) {
    const count = part.count
    if (part.removed) {
      push(segments, 'deleted', base.slice(a[i]!.start, end(a, i + count - 1)))
      open ??= { aFrom: i, aTo: i, bFrom: j, bTo: j }
      i += count
      open.aTo = i
    } else if (part.added) {
      push(segments, 'inserted', revised.slice(b[j]!.start, end(b, j + count - 1)))
      open ??= { aFrom: i, aTo: i, bFrom: j, bTo: j }
      j += count
      open.bTo = j
    } else {
      push(segments, 'equal', revised.slice(b[j]!.start, end(b, j + count - 1)))
      // Spacing and brackets alone between two runs join them into one change: "30 days" → "60
      // business days", "thirty (30)" → "sixty (60)".
      const joins = open !== null && count <= 3 && b.slice(j, j + count).every(isJoiner)
      if (!joins && open) {
        runs.push(open)
        open = null
      }
      i += count
      j += count
      if (joins && open) {
        open.aTo = i
        open.bTo = j
      }
    }
  }
  if (open) runs.push(open)
  for (const run of runs) closeBracket(a, b, run)
  const hunks = runs.map((run) => hunkOf(a, b, run, baseSpan, revisedSpan, baseLabel, revisedLabel))
  return { segments, hunks }
}

/**
 * A change that opens a bracket it does not close ("thirty (30" → "sixty (60") cites the closing
 * bracket that follows on both sides, so each citation reads whole; the redline is unchanged.
 */
function closeBracket(
  a: readonly Token[],
  b: readonly Token[],
  run: { aFrom: number; aTo: number; bFrom: number; bTo: number },
): void {
  const open = (tokens: readonly Token[], from: number, to: number) =>
    tokens.slice(from, to).reduce((n, t) => n + (t.text === '(' ? 1 : t.text === ')' ? -1 : 0), 0)
  if (
    a[run.aTo]?.text === ')' &&
    b[run.bTo]?.text === ')' &&
    (open(a, run.aFrom, run.aTo) > 0 || open(b, run.bFrom, run.bTo) > 0)
  ) {
    run.aTo += 1
    run.bTo += 1
  }
}

function end(tokens: readonly Token[], k: number): number {
  const t = tokens[k]!
  return t.start + t.text.length
}

function push(segments: RedlineSegment[], kind: RedlineSegment['kind'], text: string): void {
  if (text === '') return
  const last = segments[segments.length - 1]
  if (last && last.kind === kind) last.text += text
  else segments.push({ kind, text })
}

function wholeReplacement(
  base: string,
  baseSpan: TextSpan,
  revised: string,
  revisedSpan: TextSpan,
): UnitDiff {
  const segments: RedlineSegment[] = []
  push(segments, 'deleted', base.slice(baseSpan.start, baseSpan.end))
  push(segments, 'inserted', revised.slice(revisedSpan.start, revisedSpan.end))
  return {
    segments,
    hunks: [{ kind: 'modified', base: { ...baseSpan }, revised: { ...revisedSpan }, format: null }],
  }
}

function hunkOf(
  a: readonly Token[],
  b: readonly Token[],
  run: { aFrom: number; aTo: number; bFrom: number; bTo: number },
  baseSpan: TextSpan,
  revisedSpan: TextSpan,
  baseLabel: TextSpan | null,
  revisedLabel: TextSpan | null,
): WordHunk {
  // Spans trimmed of the whitespace at their edges, so a citation starts and ends on a word.
  const aTokens = trimSpace(a.slice(run.aFrom, run.aTo))
  const bTokens = trimSpace(b.slice(run.bFrom, run.bTo))
  const at = (tokens: readonly Token[], k: number, span: TextSpan) =>
    k < tokens.length ? tokens[k]!.start : span.end
  const baseCite =
    aTokens.length > 0
      ? { start: aTokens[0]!.start, end: end(aTokens, aTokens.length - 1) }
      : point(at(a, run.aFrom, baseSpan))
  const revisedCite =
    bTokens.length > 0
      ? { start: bTokens[0]!.start, end: end(bTokens, bTokens.length - 1) }
      : point(at(b, run.bFrom, revisedSpan))
  const aWords = aTokens.filter((t) => !isSpace(t)).map((t) => t.text)
  const bWords = bTokens.filter((t) => !isSpace(t)).map((t) => t.text)
  const kind = aWords.length === 0 ? 'inserted' : bWords.length === 0 ? 'deleted' : 'modified'
  return {
    kind,
    base: baseCite,
    revised: revisedCite,
    format: formatOf(aWords, bWords, baseCite, revisedCite, baseLabel, revisedLabel),
  }
}

function point(at: number): TextSpan {
  return { start: at, end: at }
}

function trimSpace(tokens: readonly Token[]): Token[] {
  let from = 0
  let to = tokens.length
  while (from < to && isSpace(tokens[from]!)) from += 1
  while (to > from && isSpace(tokens[to - 1]!)) to -= 1
  return tokens.slice(from, to)
}

const within = (inner: TextSpan, outer: TextSpan | null) =>
  outer !== null && inner.start >= outer.start && inner.end <= outer.end

/** What of the form a hunk changes, or null when it changes words. */
function formatOf(
  aWords: readonly string[],
  bWords: readonly string[],
  baseCite: TextSpan,
  revisedCite: TextSpan,
  baseLabel: TextSpan | null,
  revisedLabel: TextSpan | null,
): FormatKind | null {
  if (aWords.join('') === bWords.join('')) return 'whitespace'
  if (within(baseCite, baseLabel) && within(revisedCite, revisedLabel)) return 'renumbering'
  // A label added or removed outright ("4." where there was none) is also numbering.
  if (
    (aWords.length === 0 && within(revisedCite, revisedLabel)) ||
    (bWords.length === 0 && within(baseCite, baseLabel))
  )
    return 'renumbering'
  if (aWords.join(' ').toLowerCase() === bWords.join(' ').toLowerCase()) return 'case'
  const letters = (w: readonly string[]) =>
    w
      .filter((t) => /[\p{L}\p{N}]/u.test(t))
      .join(' ')
      .toLowerCase()
  if (letters(aWords) === letters(bWords)) return 'punctuation'
  return null
}
