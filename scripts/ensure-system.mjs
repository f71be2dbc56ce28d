#!/usr/bin/env node
/**
 * Installs the Debian packages Lexdesk needs when they are missing.
 * Usage: node scripts/ensure-system.mjs app|test
 *   app  — what `npm start` needs (nothing beyond Node yet: database, files and AI engines are embedded)
 *   test — what `npm test` needs on top: chromium for the Playwright end-to-end tests
 * As root it runs apt-get; otherwise it prints the command to run and exits 1.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'

/** Each need: the Debian package and how to tell it is already there. */
const NEEDS = {
  app: [],
  test: [{ pkg: 'chromium', present: () => existsSync('/usr/bin/chromium') }],
}

const mode = process.argv[2] ?? 'app'
const wanted = mode === 'test' ? [...NEEDS.app, ...NEEDS.test] : NEEDS.app
const missing = wanted.filter((n) => !n.present()).map((n) => n.pkg)
if (missing.length === 0) process.exit(0)

const command = `apt-get update && apt-get install -y --no-install-recommends ${missing.join(' ')}`
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
if (!isRoot) {
  console.error(
    `Lexdesk needs these system packages: ${missing.join(', ')}.\nInstall them with:\n  sudo ${command}`,
  )
  process.exit(1)
}
console.log(`Installing system packages: ${missing.join(', ')}`)
execFileSync('apt-get', ['update'], { stdio: 'inherit' })
const result = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', ...missing], {
  stdio: 'inherit',
  env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
})
process.exit(result.status ?? 1)
