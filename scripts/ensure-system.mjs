#!/usr/bin/env node
/**
 * Installs the Debian packages Lexdesk needs when they are missing.
 * Usage: node scripts/ensure-system.mjs app|test
 *   app  — what `npm start` needs: the local speech engines (ffmpeg decodes and encodes audio,
 *          PocketSphinx and its US English model transcribe, with sphinxbase-utils' sphinx_fe
 *          measuring each piece's cepstral mean first; espeak-ng speaks) and OCR of scanned PDFs
 *          (poppler-utils' pdftoppm renders pages, tesseract-ocr recognises them with the language
 *          pack of each language of OCR_LANGUAGES, default eng: tesseract-ocr-<lang>; decision 0053)
 *   test — what `npm test` needs on top: chromium for the Playwright end-to-end tests
 *   server — what `npm run test:server` needs on top of app (issue 28, decision 0064):
 *          PostgreSQL 15 and its server headers, gcc and make (to build pgvector), haproxy (the
 *          load balancer in front of two instances), wrk (the server bench's HTTP load tool,
 *          decision 0095; PostgreSQL 15 brings pgbench, its other side); then pgvector itself, built from
 *          ../shared/vendor/pgvector-0.8.6.tar.gz (checked against its sha256) in a temporary
 *          directory and installed into PostgreSQL 15 when its extension files are missing. Without
 *          ../shared it says so and goes on: the server then searches by words only.
 * As root it runs apt-get; otherwise it prints the command to run and exits 1.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { APT_LOCK_TIMEOUT_S, aptArguments, missingPackages } from './apt-packages.mjs'

/** Whether `command` is an executable on PATH. */
function onPath(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0
}

/** Whether the Debian package `pkg` is installed (dpkg's status, not just a leftover file). */
function installed(pkg) {
  const query = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' })
  return query.status === 0 && query.stdout.includes('install ok installed')
}

/**
 * The tesseract language packs of `languages` (OCR_LANGUAGES: codes joined by '+', e.g.
 * 'eng+deu'), one Debian package each: tesseract-ocr-<code>, with '_' written '-' (chi_sim is
 * tesseract-ocr-chi-sim).
 */
function ocrLanguagePackages(languages) {
  return languages
    .split('+')
    .map((code) => code.trim().toLowerCase())
    .filter((code) => /^[a-z_]+$/.test(code))
    .map((code) => {
      const pkg = `tesseract-ocr-${code.replaceAll('_', '-')}`
      return { pkg, present: () => installed(pkg) }
    })
}

/** Each need: the Debian package and how to tell it is already there. */
const NEEDS = {
  app: [
    { pkg: 'ffmpeg', present: () => onPath('ffmpeg') },
    { pkg: 'pocketsphinx', present: () => onPath('pocketsphinx_continuous') },
    {
      pkg: 'pocketsphinx-en-us',
      present: () =>
        installed('pocketsphinx-en-us') ||
        existsSync('/usr/share/pocketsphinx/model/en-us/en-us/mdef'),
    },
    { pkg: 'espeak-ng', present: () => onPath('espeak-ng') },
    { pkg: 'sphinxbase-utils', present: () => onPath('sphinx_fe') },
    { pkg: 'poppler-utils', present: () => onPath('pdftoppm') },
    { pkg: 'tesseract-ocr', present: () => onPath('tesseract') },
    // ocrmypdf is not used by the server (decision 0053); it is kept installed for operators who
    // want to add a text layer to a scanned file by hand.
    { pkg: 'ocrmypdf', present: () => onPath('ocrmypdf') },
    ...ocrLanguagePackages(process.env.OCR_LANGUAGES ?? 'eng'),
  ],
  test: [{ pkg: 'chromium', present: () => existsSync('/usr/bin/chromium') }],
  server: [
    { pkg: 'postgresql-15', present: () => existsSync(`${PG_BIN}/postgres`) },
    {
      pkg: 'postgresql-server-dev-15',
      present: () => existsSync('/usr/include/postgresql/15/server/postgres.h'),
    },
    { pkg: 'gcc', present: () => onPath('gcc') },
    { pkg: 'make', present: () => onPath('make') },
    { pkg: 'haproxy', present: () => onPath('haproxy') || existsSync('/usr/sbin/haproxy') },
    { pkg: 'wrk', present: () => onPath('wrk') },
  ],
}

/** Where Debian puts PostgreSQL 15's programs (not on PATH). */
const PG_BIN = '/usr/lib/postgresql/15/bin'

/**
 * pgvector's source release (../shared/vendor/README.md gives the file, its sha256 and the
 * build): `git archive` of tag v0.8.6, the release whose HNSW index Lexdesk's migrations use.
 */
const PGVECTOR = {
  archive: path.resolve(
    path.dirname(fileURLToPath(import.meta.url)),
    '../../shared/vendor/pgvector-0.8.6.tar.gz',
  ),
  dir: 'pgvector-0.8.6',
  sha256: '5743dac39fdfa740533cf95e71b033bd5513b71dda194b3cf19464ccbf76f3fb',
}

/** Whether PostgreSQL 15 has pgvector's extension files (control file in its share directory). */
function pgvectorInstalled() {
  const share = spawnSync(`${PG_BIN}/pg_config`, ['--sharedir'], { encoding: 'utf8' })
  const dir = share.status === 0 ? share.stdout.trim() : '/usr/share/postgresql/15'
  return existsSync(path.join(dir, 'extension', 'vector.control'))
}

/**
 * Builds pgvector from the vendored archive in a temporary directory and installs it (about 40 s
 * on two cores). OPTFLAGS="" drops -march=native so the build runs on any x86-64 machine. Returns
 * without building, saying why, when the archive is absent; throws when its sha256 differs.
 */
function buildPgvector() {
  if (pgvectorInstalled()) return
  if (!existsSync(PGVECTOR.archive)) {
    console.log(
      `pgvector: skipped, ${PGVECTOR.archive} is absent (../shared is not beside this checkout); PostgreSQL will search by words only`,
    )
    return
  }
  const digest = createHash('sha256').update(readFileSync(PGVECTOR.archive)).digest('hex')
  if (digest !== PGVECTOR.sha256) {
    throw new Error(`pgvector: ${PGVECTOR.archive} has sha256 ${digest}, not ${PGVECTOR.sha256}`)
  }
  const temp = mkdtempSync(path.join(os.tmpdir(), 'lexdesk-pgvector-'))
  try {
    console.log(`pgvector: building ${PGVECTOR.dir} in ${temp}`)
    execFileSync('tar', ['-xzf', PGVECTOR.archive, '-C', temp], { stdio: 'inherit' })
    const source = path.join(temp, PGVECTOR.dir)
    const make = (...args) =>
      execFileSync('make', ['-C', source, `PG_CONFIG=${PG_BIN}/pg_config`, 'OPTFLAGS=', ...args], {
        stdio: ['ignore', 'ignore', 'inherit'],
      })
    make()
    make('install')
    console.log('pgvector: installed into PostgreSQL 15')
  } finally {
    rmSync(temp, { recursive: true, force: true })
  }
}

const mode = process.argv[2] ?? 'app'
const missing = missingPackages(NEEDS, mode)
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
if (missing.length === 0) {
  if (mode === 'server') finishServer()
  process.exit(0)
}

/** The server mode's last step: pgvector, which no Debian package offers. */
function finishServer() {
  if (pgvectorInstalled()) return
  if (!isRoot) {
    console.error(
      'Lexdesk needs pgvector in PostgreSQL 15 (it writes into the system PostgreSQL): run `sudo node scripts/ensure-system.mjs server`',
    )
    process.exit(1)
  }
  buildPgvector()
}

const command = `apt-get update && apt-get install -y --no-install-recommends ${missing.join(' ')}`
if (!isRoot) {
  console.error(
    `Lexdesk needs these system packages: ${missing.join(', ')}.\nInstall them with:\n  sudo ${command}`,
  )
  process.exit(1)
}
console.log(`Installing system packages: ${missing.join(', ')}`)
console.log(
  `(If another apt-get or dpkg is running, this waits up to ${APT_LOCK_TIMEOUT_S / 60} minutes for it to finish.)`,
)
execFileSync('apt-get', aptArguments('update'), { stdio: 'inherit' })
const result = spawnSync('apt-get', aptArguments('install', missing), {
  stdio: 'inherit',
  env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
})
if (result.status === 0 && mode === 'server') finishServer()
process.exit(result.status ?? 1)
