/**
 * The web app's JavaScript (issue 21): builds the SPA into a temporary folder with the project's
 * Vite config and reports, from its manifest (scripts/measure-bundle.ts), `landing_js_kib_gz` (the
 * landing page's JavaScript, budget 150 KiB of gzip) and `max_route_js_kib_gz` (the heaviest route:
 * entry, dashboard layouts and the route's chunk with their imports; budget 250 KiB). Then
 * Lighthouse on that build served by the real server (lighthouse-pages.ts, issue 30):
 * `lighthouse_performance`, `lighthouse_accessibility`, `lcp_ms` and `tbt_ms` of the landing page
 * (targets: performance at least 90, accessibility 100), and the documents screen's two scores.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { build } from 'vite'
import { BUNDLE_BUDGETS } from '../scripts/bundle-budgets'
import { measureBundle } from '../scripts/measure-bundle'
import { freePort } from '../server/test/free-port'
import { lighthousePages } from './lighthouse-pages'

type Report = (key: string, value: number | null, unit: string, note?: string) => void

/** Runs the web bench and reports its figures through `report`. */
export async function webBench(report: Report): Promise<void> {
  const outDir = await mkdtemp(path.join(os.tmpdir(), 'lexdesk-web-bench-'))
  try {
    await build({ build: { outDir, emptyOutDir: true }, logLevel: 'warn' })
    const measure = measureBundle(outDir, BUNDLE_BUDGETS.dashboardLayouts)
    const heaviest = measure.routes[0]
    report('landing_js_kib_gz', measure.landingKiB, 'KiB', `budget ${BUNDLE_BUDGETS.landingKiB}`)
    report(
      'max_route_js_kib_gz',
      heaviest?.kiB ?? null,
      'KiB',
      `${heaviest?.chunk ?? 'no lazy route'}; budget ${BUNDLE_BUDGETS.routeKiB}; ${measure.routes.length} routes`,
    )
    const { landing, documents } = await lighthousePages(outDir, await freePort())
    const load = `desktop preset; load ${os.loadavg()[0]?.toFixed(1)} on ${os.availableParallelism()} cores`
    const below = (failing: string[]) => (failing.length ? `; below 1: ${failing.join(', ')}` : '')
    report(
      'lighthouse_performance',
      landing.performance,
      '/100',
      `landing, target 90; ${load}${below(landing.failing.performance)}`,
    )
    report(
      'lighthouse_accessibility',
      landing.accessibility,
      '/100',
      `landing, target 100${below(landing.failing.accessibility)}`,
    )
    report('lcp_ms', landing.lcpMs, 'ms', 'landing')
    report('tbt_ms', landing.tbtMs, 'ms', 'landing')
    report(
      'lighthouse_documents_performance',
      documents.performance,
      '/100',
      `${load}${below(documents.failing.performance)}`,
    )
    report(
      'lighthouse_documents_accessibility',
      documents.accessibility,
      '/100',
      `documents screen${below(documents.failing.accessibility)}`,
    )
  } finally {
    await rm(outDir, { recursive: true, force: true })
  }
}
