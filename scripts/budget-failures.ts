import type { BundleMeasure } from './measure-bundle'

/** One line per figure of `measure` over its budget (KiB of gzip); empty when all fit. */
export function budgetFailures(
  measure: BundleMeasure,
  budgets: { landingKiB: number; routeKiB: number },
): string[] {
  const failures: string[] = []
  if (measure.landingKiB > budgets.landingKiB) {
    failures.push(`landing page: ${measure.landingKiB} KiB > ${budgets.landingKiB} KiB`)
  }
  for (const route of measure.routes) {
    if (route.kiB > budgets.routeKiB) {
      failures.push(`route ${route.chunk}: ${route.kiB} KiB > ${budgets.routeKiB} KiB`)
    }
  }
  return failures
}
