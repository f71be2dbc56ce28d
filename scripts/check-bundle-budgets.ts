#!/usr/bin/env tsx
/**
 * `npx tsx scripts/check-bundle-budgets.ts [distDir]` (run by `npm test` after `vite build`):
 * prints the landing page's and the heaviest routes' JavaScript (KiB of gzip) from the build's
 * manifest and exits 1 when one is over its budget (scripts/bundle-budgets.ts).
 */
import { BUNDLE_BUDGETS } from './bundle-budgets'
import { budgetFailures } from './budget-failures'
import { measureBundle } from './measure-bundle'

const distDir = process.argv[2] ?? 'dist/web'
const measure = measureBundle(distDir, BUNDLE_BUDGETS.dashboardLayouts)
console.log(`landing page: ${measure.landingKiB} KiB gzip (budget ${BUNDLE_BUDGETS.landingKiB})`)
for (const route of measure.routes.slice(0, 5)) {
  console.log(`route ${route.chunk}: ${route.kiB} KiB gzip (budget ${BUNDLE_BUDGETS.routeKiB})`)
}
const failures = budgetFailures(measure, BUNDLE_BUDGETS)
for (const failure of failures) console.error(`over budget: ${failure}`)
process.exit(failures.length === 0 ? 0 : 1)
