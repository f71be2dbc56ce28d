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
 * As root it runs apt-get; otherwise it prints the command to run and exits 1.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'

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
