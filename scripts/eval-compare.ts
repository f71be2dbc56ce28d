/**
 * Scores the comparison engine (issue 46, decision 0146) on pairs made from the CUAD contracts of
 * the fixtures folder (`contracts/cuad-txt` under $LEXDESK_FIXTURES, else ../shared/fixtures; or
 * `--contracts DIR`):
 *
 *   npm run eval:compare -- [--contracts DIR] [--limit N] [--seed S] [--hard]
 *
 * Each contract (line ends normalised as uploads are) gets a revised copy with seeded edits
 * (scripts/compare-pairs.ts: words changed, paragraphs deleted, inserted and moved, and a
 * renumbering, a doubled space and an added blank line that must not count; `--hard`: more of each,
 * two of three moved paragraphs also edited, scripts/compare-pairs.ts HARD_EDITS). Then compareTexts
 * runs and its changes are matched to the edits by overlapping spans:
 * - change precision: the substantive changes found (moves aside) that overlap a substantive
 *   edit, over all substantive changes found; change recall: the substantive edits (moves aside)
 *   that a substantive change overlaps, over all of them;
 * - move precision and recall: the same for moves (a found move must overlap the seeded one in
 *   both versions).
 * The four keys are computed on the held-out contracts (odd positions in name order; the
 * engine's thresholds were set looking at the even ones only), the `dev_` keys on the even ones.
 * Prints progress on stderr and ONE JSON line on stdout. Exits 1 when the folder is absent.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { compareTexts } from '../server/compare/compare-texts'
import type { Change } from '../server/compare/comparison'
import {
  DEFAULT_EDITS,
  HARD_EDITS,
  makeSeededPair,
  type SeededEdit,
  type SeededSpan,
} from './compare-pairs'
import { fixturesDir, parseArgs } from './cuad-dataset'

const USAGE = 'usage: npm run eval:compare -- [--contracts DIR] [--limit N] [--seed S] [--hard]'

interface Tally {
  found: number
  foundRight: number
  seeded: number
  seededFound: number
  moves: number
  movesRight: number
  seededMoves: number
  seededMovesFound: number
  /** Form-only edits reported as substantive. */
  formFlagged: number
  formEdits: number
  pairs: number
}

const emptyTally = (): Tally => ({
  found: 0,
  foundRight: 0,
  seeded: 0,
  seededFound: 0,
  moves: 0,
  movesRight: 0,
  seededMoves: 0,
  seededMovesFound: 0,
  formFlagged: 0,
  formEdits: 0,
  pairs: 0,
})

/** Whether two spans share a character, or an empty one falls inside the other. */
function overlaps(a: SeededSpan | null, b: SeededSpan | null): boolean {
  if (!a || !b) return false
  if (a.start === a.end) return a.start >= b.start && a.start <= b.end && b.start !== b.end
  if (b.start === b.end) return b.start >= a.start && b.start <= a.end
  return a.start < b.end && b.start < a.end
}

const touches = (change: Change, edit: SeededEdit) =>
  (edit.base !== null && change.base.end > change.base.start && overlaps(change.base, edit.base)) ||
  (edit.revised !== null &&
    change.revised.end > change.revised.start &&
    overlaps(change.revised, edit.revised))

/** Adds one pair's matches to `tally`. */
function score(tally: Tally, changes: readonly Change[], edits: readonly SeededEdit[]): void {
  const substantive = changes.filter((c) => c.substantive && c.kind !== 'moved')
  const seeded = edits.filter((e) => e.substantive && e.kind !== 'moved')
  const moves = changes.filter((c) => c.kind === 'moved')
  const seededMoves = edits.filter((e) => e.kind === 'moved')
  const form = edits.filter((e) => !e.substantive)
  tally.pairs += 1
  tally.found += substantive.length
  tally.foundRight += substantive.filter((c) => seeded.some((e) => touches(c, e))).length
  tally.seeded += seeded.length
  tally.seededFound += seeded.filter((e) => substantive.some((c) => touches(c, e))).length
  const moveMatches = (c: Change, e: SeededEdit) =>
    overlaps(c.base, e.base) && overlaps(c.revised, e.revised)
  tally.moves += moves.length
  tally.movesRight += moves.filter((c) => seededMoves.some((e) => moveMatches(c, e))).length
  tally.seededMoves += seededMoves.length
  tally.seededMovesFound += seededMoves.filter((e) => moves.some((c) => moveMatches(c, e))).length
  tally.formEdits += form.length
  tally.formFlagged += form.filter((e) => substantive.some((c) => touches(c, e))).length
}

const ratio = (a: number, b: number) => (b === 0 ? null : Math.round((a / b) * 10_000) / 10_000)

function figures(t: Tally, prefix = ''): Record<string, number | null> {
  return {
    [`${prefix}change_precision`]: ratio(t.foundRight, t.found),
    [`${prefix}change_recall`]: ratio(t.seededFound, t.seeded),
    [`${prefix}move_precision`]: ratio(t.movesRight, t.moves),
    [`${prefix}move_recall`]: ratio(t.seededMovesFound, t.seededMoves),
    [`${prefix}form_edits_flagged`]: ratio(t.formFlagged, t.formEdits),
    [`${prefix}pairs`]: t.pairs,
  }
}

const args = parseArgs(process.argv.slice(2))
const given = (name: string) => {
  const value = args.get(name)
  return value && value !== 'true' ? value : undefined
}
const dir = given('contracts') ?? join(fixturesDir(), 'contracts/cuad-txt')
if (!existsSync(dir)) {
  process.stderr.write(
    `error: contracts folder not found: ${dir} (the fixtures live outside the repository: pass --contracts DIR or set LEXDESK_FIXTURES).\n${USAGE}\n`,
  )
  process.exit(1)
}
const limit = Number(given('limit') ?? Infinity)
const seed = Number(given('seed') ?? 46)
const hard = args.has('hard')
const names = readdirSync(dir)
  .filter((f) => f.endsWith('.txt'))
  .sort()
const heldOut = emptyTally()
const dev = emptyTally()
const misses: string[] = []
let done = 0
const started = performance.now()
for (const [position, name] of names.entries()) {
  if (done >= limit * 2) break
  const text = readFileSync(join(dir, name), 'utf8').replace(/\r\n?/g, '\n')
  const pair = makeSeededPair(text, seed * 100_003 + position, hard ? HARD_EDITS : DEFAULT_EDITS)
  const comparison = compareTexts(pair.base, pair.revised, { notes: false })
  const tally = position % 2 === 1 ? heldOut : dev
  const before = { ...tally }
  score(tally, comparison.changes, pair.edits)
  if (
    position % 2 === 0 &&
    (tally.foundRight - before.foundRight !== tally.found - before.found ||
      tally.seededFound - before.seededFound !== tally.seeded - before.seeded ||
      tally.movesRight - before.movesRight !== tally.moves - before.moves ||
      tally.seededMovesFound - before.seededMovesFound !== tally.seededMoves - before.seededMoves)
  )
    misses.push(name)
  done += 1
  if (done % 50 === 0)
    process.stderr.write(`${done} pairs, ${Math.round((performance.now() - started) / 1000)} s\n`)
}
if (args.has('misses'))
  process.stderr.write(`development pairs with a miss:\n${misses.join('\n')}\n`)
console.log(
  JSON.stringify({
    ...figures(heldOut),
    ...figures(dev, 'dev_'),
    seed,
    edits: hard ? 'hard' : 'default',
    seconds: Math.round((performance.now() - started) / 100) / 10,
  }),
)
