/**
 * The web app's JavaScript (issue 21): builds the SPA into a temporary folder with the project's
 * Vite config and reports, from its manifest (scripts/measure-bundle.ts), `landing_js_kib_gz` (the
 * landing page's JavaScript, budget 150 KiB of gzip) and `max_route_js_kib_gz` (the heaviest route:
 * entry, dashboard layouts and the route's chunk with their imports; budget 250 KiB).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { build } from 'vite'
import { BUNDLE_BUDGETS } from '../scripts/bundle-budgets'
import { measureBundle } from '../scripts/measure-bundle'

type Report = (key: string, value: number | null, unit: string, note?: string) => void

/** Runs the web bench and reports its two figures through `report`. */
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
  } finally {
    await rm(outDir, { recursive: true, force: true })
  }
}
