/**
 * The local analysis bench (issue 48: "local analysis stays under 200 ms median per CUAD contract on
 * one thread; the whole 1,000-contract analysis throughput must not fall by more than 20 %"), on
 * the CUAD development contracts of the fixtures folder (`--fixtures DIR` or LEXDESK_FIXTURES).
 * Figures, all of the full local analysis (`analyzeLocal(text, 'full')`) on this one thread:
 * - `analysis_longest_contract_ms`: the longest contract, best of 3
 * - `analysis_median_ms`: median over every contract, one analysis each, after a warm-up
 * - `analysis_contracts_per_s`: 1,000 analyses (the contracts in turn) over their wall time
 * Without fixtures each figure is printed as n/a with the reason.
 */
import { existsSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { analyzeLocal } from '../server/ai/analyzer/local/analyze-local'

type Report = (key: string, value: number | null, unit: string, note?: string) => void

const THROUGHPUT_RUNS = 1000

/** The contracts' texts (line ends normalised as uploads are), or why there are none. */
async function cuadContracts(): Promise<
  { texts: { name: string; text: string }[] } | { why: string }
> {
  const flag = process.argv.indexOf('--fixtures')
  const fixtures = (flag >= 0 ? process.argv[flag + 1] : undefined) ?? process.env.LEXDESK_FIXTURES
  if (!fixtures) return { why: 'no fixtures: pass --fixtures DIR or set LEXDESK_FIXTURES' }
  const dir = path.resolve(fixtures, 'contracts/cuad-txt')
  if (!existsSync(dir)) return { why: `fixtures not found at ${dir}; set LEXDESK_FIXTURES` }
  const names = (await readdir(dir)).filter((f) => f.endsWith('.txt')).sort()
  const texts = await Promise.all(
    names.map(async (name) => ({
      name,
      text: (await readFile(path.join(dir, name), 'utf8')).replace(/\r\n?/g, '\n'),
    })),
  )
  return { texts }
}

function timed(text: string): number {
  const t0 = performance.now()
  analyzeLocal(text, 'full')
  return performance.now() - t0
}

/** Runs the local analysis bench and reports its three figures. */
export async function analysisBench(report: Report): Promise<void> {
  const found = await cuadContracts()
  const keys = ['analysis_longest_contract_ms', 'analysis_median_ms', 'analysis_contracts_per_s']
  if ('why' in found || found.texts.length === 0) {
    const why = 'why' in found ? found.why : 'no contracts in the fixtures folder'
    for (const key of keys) report(key, null, key.endsWith('_s') ? '/s' : 'ms', why)
    return
  }
  const { texts } = found
  const longest = [...texts].sort((a, b) => b.text.length - a.text.length)[0]!
  timed(longest.text) // warm-up: model load and JIT
  const best = Math.min(...[0, 1, 2].map(() => timed(longest.text)))
  report(
    'analysis_longest_contract_ms',
    best,
    'ms',
    `${longest.name}, ${longest.text.length} chars, best of 3`,
  )

  const times: number[] = []
  const t0 = performance.now()
  for (let i = 0; i < THROUGHPUT_RUNS; i++) {
    const ms = timed(texts[i % texts.length]!.text)
    if (i < texts.length) times.push(ms)
  }
  const wallS = (performance.now() - t0) / 1000
  const sorted = times.sort((a, b) => a - b)
  report(
    'analysis_median_ms',
    sorted[Math.floor((sorted.length - 1) / 2)]!,
    'ms',
    `${sorted.length} contracts, one analysis each; p90 ${sorted[Math.floor(sorted.length * 0.9)]!.toFixed(0)} ms`,
  )
  report(
    'analysis_contracts_per_s',
    THROUGHPUT_RUNS / wallS,
    '/s',
    `${THROUGHPUT_RUNS} analyses in ${wallS.toFixed(1)} s, one thread`,
  )
}
