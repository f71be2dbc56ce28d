import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterEach, describe, expect, it } from 'vitest'
import { budgetFailures } from './budget-failures'
import { measureBundle } from './measure-bundle'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A fake build: each chunk a file of `kb` KB of random hex, plus the manifest. */
function fakeBuild(chunks: Record<string, { kb: number; imports?: string[]; kind?: string }>) {
  const dist = mkdtempSync(path.join(os.tmpdir(), 'bundle-'))
  dirs.push(dist)
  mkdirSync(path.join(dist, 'assets'))
  mkdirSync(path.join(dist, '.vite'))
  const manifest: Record<string, object> = {}
  const gz: Record<string, number> = {}
  for (const [key, { kb, imports, kind }] of Object.entries(chunks)) {
    const file = `assets/${key.replace(/[^a-z]/g, '')}.js`
    const content = randomBytes(kb * 512).toString('hex')
    writeFileSync(path.join(dist, file), content)
    gz[key] = gzipSync(content).length
    manifest[key] = {
      file,
      imports,
      ...(kind === 'entry' ? { isEntry: true } : kind === 'lazy' ? { isDynamicEntry: true } : {}),
    }
  }
  writeFileSync(path.join(dist, '.vite', 'manifest.json'), JSON.stringify(manifest))
  const kiB = (...keys: string[]) =>
    Math.round((keys.reduce((sum, k) => sum + (gz[k] ?? 0), 0) / 1024) * 10) / 10
  return { dist, kiB }
}

describe('measureBundle', () => {
  it('counts the entry closure for the landing page and entry + layouts + route closure per route, each chunk once', () => {
    const { dist, kiB } = fakeBuild({
      'index.html': { kb: 40, imports: ['_react.js'], kind: 'entry' },
      '_react.js': { kb: 20 },
      '_shared.js': { kb: 10, imports: ['_react.js'] },
      'app/layout.tsx': { kb: 5, imports: ['index.html', '_shared.js'], kind: 'lazy' },
      'features/big.tsx': { kb: 30, imports: ['_shared.js', '_chart.js'], kind: 'lazy' },
      '_chart.js': { kb: 15 },
      'features/small.tsx': { kb: 2, imports: ['index.html'], kind: 'lazy' },
    })

    const measure = measureBundle(dist, ['app/layout.tsx'])

    expect(measure.landingKiB).toBe(kiB('index.html', '_react.js'))
    const base = ['index.html', '_react.js', 'app/layout.tsx', '_shared.js']
    expect(measure.routes).toEqual([
      { chunk: 'features/big.tsx', kiB: kiB(...base, 'features/big.tsx', '_chart.js') },
      { chunk: 'features/small.tsx', kiB: kiB(...base, 'features/small.tsx') },
    ])
  })

  it('refuses a build whose manifest lacks a named layout', () => {
    const { dist } = fakeBuild({ 'index.html': { kb: 1, kind: 'entry' } })
    expect(() => measureBundle(dist, ['app/org-layout.tsx'])).toThrow(/no chunk app\/org-layout/)
  })
})

describe('budgetFailures', () => {
  const budgets = { landingKiB: 150, routeKiB: 250 }

  it('names the landing page and each route over budget', () => {
    const failures = budgetFailures(
      {
        landingKiB: 150.1,
        routes: [
          { chunk: 'app/documents-route.tsx', kiB: 251 },
          { chunk: 'features/sql/sql-page.tsx', kiB: 250 },
        ],
      },
      budgets,
    )
    expect(failures).toEqual([
      'landing page: 150.1 KiB > 150 KiB',
      'route app/documents-route.tsx: 251 KiB > 250 KiB',
    ])
  })

  it('passes a build within both budgets', () => {
    expect(
      budgetFailures({ landingKiB: 150, routes: [{ chunk: 'a', kiB: 250 }] }, budgets),
    ).toEqual([])
  })
})
