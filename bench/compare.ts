/**
 * The comparison bench (issue 46: "a 100-page contract against a revised copy (clauses moved,
 * words changed, a clause deleted): compare ≤ 2 s, DOCX with tracked changes ≤ 3 s, round trip
 * verified"). The contract is generated, seeded, from the sample contract
 * (server/test/sample-files.ts): articles of numbered sub-clauses, each a sample clause with its
 * numbers varied and a sentence of seeded words, to 300,000 characters (100 pages of 3,000). The
 * revised copy comes from scripts/compare-pairs.ts (40 words changed, 5 clauses moved, 1 deleted).
 * Figures, median of 3 runs on this one thread, after a warm-up:
 * - `compare_100_pages_ms`: compareTexts, notes included
 * - `redline_docx_ms`: buildVerifiedRedline (the DOCX written, read back, both texts checked)
 * - `playbook_check_ms`: checkPlaybook (server/playbooks/), 50 positions (the two starters', then
 *   one per remaining clause type, with typed rules or sample language) against the stored full
 *   analysis of a 30-page contract made the same way (the route reads a stored analysis; the
 *   local analysis itself is reported in the note)
 * No budget in bench/budgets.ts yet: not measured on a loaded 2-core machine.
 */
import { compareTexts } from '../server/compare/compare-texts'
import { buildVerifiedRedline } from '../server/compare/redline-docx'
import { SAMPLE_CONTRACT } from '../server/test/sample-files'
import { makeSeededPair } from '../scripts/compare-pairs'
import { analyzeLocal } from '../server/ai/analyzer/local/analyze-local'
import { checkPlaybook } from '../server/playbooks/check-playbook'
import { CLAUSE_TYPES, Positions, type Position } from '../server/playbooks/positions'
import { starters } from '../server/features/playbooks/starters'
import { seededRandom } from '../scripts/logistic-regression'

type Report = (key: string, value: number | null, unit: string, note?: string) => void

const PAGES = 100
const CHARS_PER_PAGE = 3_000
const RUNS = 3

const NOUNS = [
  'premises',
  'equipment',
  'deliverables',
  'records',
  'software',
  'facility',
  'inventory',
  'reports',
  'materials',
  'personnel',
  'accounts',
  'shipments',
]
const PLACES = ['New York', 'Delaware', 'London', 'Ontario', 'Texas', 'California', 'Singapore']
const PERIODS = ['month', 'quarter', 'year', 'week']

/** A 100-page (or `pages`-page) contract of numbered articles and sub-clauses, from the sample's clauses. */
export function hundredPageContract(seed = 46, pages = PAGES): string {
  const random = seededRandom(seed)
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!
  const samples = [...SAMPLE_CONTRACT.matchAll(/^\d+\. ([^.]+)\. (.+)$/gm)].map((m) => ({
    caption: m[1]!,
    text: m[2]!,
  }))
  const parts = ['MASTER SERVICES AGREEMENT', SAMPLE_CONTRACT.split('\n\n')[1]!]
  let length = parts.join('\n\n').length
  for (let article = 1; length < pages * CHARS_PER_PAGE; article += 1) {
    const heading = `ARTICLE ${article} - ${pick(samples).caption.toUpperCase()}`
    parts.push(heading)
    length += heading.length + 2
    for (let clause = 1; clause <= 6; clause += 1) {
      const sample = pick(samples)
      const varied = sample.text.replace(/\d+/g, () => String(1 + Math.floor(random() * 90)))
      const text =
        `${article}.${clause} ${sample.caption}. ${varied} ` +
        `This applies to the ${pick(NOUNS)} and the ${pick(NOUNS)} held in ${pick(PLACES)} ` +
        `for each ${pick(PERIODS)} of the term, as listed in Schedule ${article}.${clause}.`
      parts.push(text)
      length += text.length + 2
    }
  }
  return `${parts.join('\n\n')}\n`
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

/** 50 positions: the starters' (ids made distinct), then one per other clause type. */
function fiftyPositions(): Position[] {
  const positions: Position[] = []
  for (const [starter, document] of starters())
    for (const p of document.positions) positions.push({ ...p, id: `${starter}-${p.id}` })
  for (const type of CLAUSE_TYPES) {
    if (positions.length >= 50) break
    positions.push({
      id: `type-${positions.length}`,
      clauseType: type,
      title: type,
      severity: 'medium',
      preferred: {
        language: `The parties agree the ${type} terms set out in the schedule.`,
        rules: positions.length % 2 ? [{ kind: 'notice_at_least_days', days: 30 }] : [],
      },
      fallbacks: [{ language: `A ${type} clause on the usual terms.`, rules: [] }],
      unacceptable: [],
      guidance: '',
    })
  }
  return Positions.parse(positions)
}

/** Runs the bench and reports its figures. */
export async function compareBench(report: Report): Promise<void> {
  const base = hundredPageContract()
  const pair = makeSeededPair(base, 46, {
    words: 40,
    deletions: 1,
    insertions: 0,
    moves: 5,
    renumberings: 0,
    whitespace: 0,
  })
  compareTexts(pair.base, pair.revised) // warm-up: wink's model, the clause model, the JIT
  const compareTimes: number[] = []
  const redlineTimes: number[] = []
  let moves = 0
  for (let run = 0; run < RUNS; run += 1) {
    const started = performance.now()
    const comparison = compareTexts(pair.base, pair.revised)
    compareTimes.push(performance.now() - started)
    moves = comparison.changes.filter((c) => c.kind === 'moved').length
    const redlineStarted = performance.now()
    buildVerifiedRedline(comparison)
    redlineTimes.push(performance.now() - redlineStarted)
    await Promise.resolve()
  }
  const note = `${Math.round(base.length / 1000)}k characters, ${moves} moves found of 5 seeded`
  report('compare_100_pages_ms', median(compareTimes), 'ms', note)
  report(
    'redline_docx_ms',
    median(redlineTimes),
    'ms',
    'written, read back, accept and reject checked',
  )

  const thirtyPages = hundredPageContract(46, 30)
  const analysisStarted = performance.now()
  const analysis = analyzeLocal(thirtyPages, 'full')
  const analysisMs = performance.now() - analysisStarted
  const positions = fiftyPositions()
  checkPlaybook(positions, { content: thirtyPages, analysis }) // warm-up
  const checkTimes: number[] = []
  for (let run = 0; run < RUNS; run += 1) {
    const started = performance.now()
    checkPlaybook(positions, { content: thirtyPages, analysis })
    checkTimes.push(performance.now() - started)
    await Promise.resolve()
  }
  report(
    'playbook_check_ms',
    median(checkTimes),
    'ms',
    `${positions.length} positions, ${Math.round(thirtyPages.length / 1000)}k characters, ${analysis.clauses.length} clauses; its local analysis took ${Math.round(analysisMs)} ms`,
  )
}
