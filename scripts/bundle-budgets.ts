/**
 * The JavaScript budgets of the web app (issue 21), in KiB of gzip: the landing page at most 150,
 * any route at most 250 (entry, dashboard layouts and the route's chunk with their imports); and
 * the lazy layouts every dashboard screen sits under (web/router.tsx), as manifest keys.
 */
export const BUNDLE_BUDGETS = {
  landingKiB: 150,
  routeKiB: 250,
  dashboardLayouts: ['app/dashboard-layout.tsx', 'app/org-layout.tsx'],
} as const
