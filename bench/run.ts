/**
 * `npm run bench`: performance figures, printed one per line, then one JSON line of them all.
 * - local analysis time of the longest development contract: needs the fixtures folder, given as
 *   `npm run bench -- --fixtures DIR` or LEXDESK_FIXTURES=DIR (says so when absent)
 * - PDF text extraction time per page (a 50-page PDF written with pdf-lib)
 * - cold start to /readyz on an existing data dir (server started twice; the second is timed)
 * - the tenant read path: authenticated document list against /readyz under load (tenant-read.ts)
 * `npm run bench -- --only NAME` runs one of: analysis, pdf, cold-start, tenant-read.
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { analyzeLocal } from '../server/ai/analyzer/local/analyze-local'
import { extractDocumentText } from '../server/features/documents/extract-text'
import { makePdf, SAMPLE_CONTRACT } from '../server/test/sample-files'
import { tenantReadPath } from './tenant-read'

const figures: Record<string, number | null> = {}
const report = (key: string, value: number | null, unit: string, note = '') => {
  figures[key] = value === null ? null : Math.round(value * 100) / 100
  console.log(
    `${key}: ${value === null ? 'n/a' : figures[key]} ${unit}${note ? `  (${note})` : ''}`,
  )
}

async function longestContractAnalysis() {
  const flag = process.argv.indexOf('--fixtures')
  const fixtures = (flag >= 0 ? process.argv[flag + 1] : undefined) ?? process.env.LEXDESK_FIXTURES
  if (!fixtures) {
    report(
      'analysis_longest_contract_ms',
      null,
      'ms',
      'no fixtures: pass --fixtures DIR or set LEXDESK_FIXTURES',
    )
    return
  }
  const dir = path.resolve(fixtures, 'contracts/cuad-txt')
  if (!existsSync(dir)) {
    report(
      'analysis_longest_contract_ms',
      null,
      'ms',
      `fixtures not found at ${dir}; set LEXDESK_FIXTURES`,
    )
    return
  }
  const files = await Promise.all(
    (await readdir(dir)).map(async (f) => ({ f, size: (await stat(path.join(dir, f))).size })),
  )
  const longest = files.sort((a, b) => b.size - a.size)[0]
  if (!longest) return
  const content = (await readFile(path.join(dir, longest.f), 'utf8')).replace(/\r\n?/g, '\n')
  analyzeLocal(content, 'full') // warm-up: model load and JIT
  const runs = [0, 1, 2].map(() => {
    const t0 = performance.now()
    analyzeLocal(content, 'full')
    return performance.now() - t0
  })
  report(
    'analysis_longest_contract_ms',
    Math.min(...runs),
    'ms',
    `${longest.f}, ${content.length} chars, best of 3`,
  )
}

async function pdfExtraction() {
  const pages = 50
  const text = Array.from({ length: pages * 4 }, () => SAMPLE_CONTRACT).join('\n')
  const pdf = await makePdf(text)
  const t0 = performance.now()
  const extracted = await extractDocumentText(pdf, 'bench.pdf')
  const elapsed = performance.now() - t0
  report(
    'pdf_extract_ms_per_page',
    elapsed / (extracted.pages ?? 1),
    'ms/page',
    `${extracted.pages} pages`,
  )
}

async function startAndWaitReady(dataDir: string, port: number): Promise<number> {
  const t0 = performance.now()
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, PORT: String(port), LEXDESK_DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  })
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error('server exited during start')
      const ok = await fetch(`http://localhost:${port}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
      if (ok) return performance.now() - t0
      if (performance.now() - t0 > 120_000) throw new Error('server not ready after 120 s')
      await new Promise((r) => setTimeout(r, 50))
    }
  } finally {
    child.kill('SIGTERM')
    await new Promise((r) => child.once('exit', r))
  }
}

async function coldStart() {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'lexdesk-bench-'))
  try {
    report(
      'first_start_to_ready_ms',
      await startAndWaitReady(dataDir, 3987),
      'ms',
      'new data dir: initdb + migrations',
    )
    report(
      'cold_start_to_ready_ms',
      await startAndWaitReady(dataDir, 3987),
      'ms',
      'existing data dir',
    )
  } finally {
    await rm(dataDir, { recursive: true, force: true })
  }
}

const benchmarks: Record<string, () => Promise<void>> = {
  analysis: longestContractAnalysis,
  pdf: pdfExtraction,
  'cold-start': coldStart,
  'tenant-read': () => tenantReadPath(report),
}
const onlyFlag = process.argv.indexOf('--only')
const only = onlyFlag >= 0 ? process.argv[onlyFlag + 1] : undefined
if (only && !(only in benchmarks)) {
  throw new Error(`--only takes one of: ${Object.keys(benchmarks).join(', ')}`)
}
for (const [name, run] of Object.entries(benchmarks)) if (!only || only === name) await run()
console.log(JSON.stringify(figures))
