/**
 * The CUAD mode of eval:summary (`npm run eval:summary -- --cuad [--contracts DIR --labels CSV]`):
 * builds each contract's deal sheet with the local engine and scores it against the CUAD labels
 * (deal-sheet-scoring.ts). Prints per line and per field the labelled count, coverage (share
 * filled) and accuracy (share consistent with the label), the share of contracts whose term and
 * money lines are filled, and last one JSON line with `deal_sheet_coverage` and
 * `deal_sheet_accuracy`. Exits 1 when the fixtures are missing (see loadCuadFromArgs).
 */
import { analyzeLocal } from '../server/ai/analyzer/local/analyze-local'
import { DEAL_SHEET_KEYS } from '../server/ai/analyzer/types'
import { loadCuadFromArgs } from './cuad-dataset'
import { DEAL_SHEET_FIELDS, scoreDealSheet, type FieldResult } from './deal-sheet-scoring'

const USAGE = 'usage: npm run eval:summary -- --cuad [--contracts DIR --labels CSV]'

/** Runs the CUAD mode over the contracts named by `args` (see the top of this file). */
export function evalDealSheets(args: Map<string, string>): void {
  const contracts = loadCuadFromArgs(args, USAGE)
  const results: FieldResult[] = []
  const filledLines = new Map<string, number>()
  for (const contract of contracts) {
    const sheet = analyzeLocal(contract.content, 'summarize').summary.dealSheet
    if (!sheet) continue
    for (const line of sheet.lines)
      if (line.value !== null) filledLines.set(line.key, (filledLines.get(line.key) ?? 0) + 1)
    results.push(...scoreDealSheet(contract, sheet))
  }
  console.log(`Deal sheets: ${contracts.length} contracts, ${results.length} labelled fields`)
  console.log(
    `${'line / field'.padEnd(40)} ${'labelled'.padStart(8)} ${'coverage'.padStart(9)} ${'accuracy'.padStart(9)} ${'filled on'.padStart(10)}`,
  )
  for (const key of DEAL_SHEET_KEYS) {
    const own = results.filter((r) => r.line === key)
    const filledOn = (filledLines.get(key) ?? 0) / Math.max(1, contracts.length)
    console.log(`${key.padEnd(40)} ${row(own)} ${pct(filledOn).padStart(10)}`)
    for (const [field, line] of DEAL_SHEET_FIELDS)
      if (line === key)
        console.log(`  ${field.padEnd(38)} ${row(own.filter((r) => r.field === field))}`)
  }
  const coverage = share(results, (r) => r.filled)
  const accuracy = share(results, (r) => r.consistent)
  const filledShare = (key: string) => (filledLines.get(key) ?? 0) / Math.max(1, contracts.length)
  console.log(
    `all fields ${''.padEnd(29)} ${String(results.length).padStart(8)} ${pct(coverage).padStart(9)} ${pct(accuracy).padStart(9)}`,
  )
  console.log(
    JSON.stringify({
      contracts: contracts.length,
      labelled_fields: results.length,
      deal_sheet_coverage: round(coverage),
      deal_sheet_accuracy: round(accuracy),
      term_line_filled: round(filledShare('term')),
      money_line_filled: round(filledShare('money')),
    }),
  )
}

function row(results: readonly FieldResult[]): string {
  return `${String(results.length).padStart(8)} ${pct(share(results, (r) => r.filled)).padStart(9)} ${pct(share(results, (r) => r.consistent)).padStart(9)}`
}

function share(results: readonly FieldResult[], test: (r: FieldResult) => boolean): number {
  return results.length > 0 ? results.filter(test).length / results.length : 0
}

function pct(value: number): string {
  return value.toFixed(3)
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000
}
