/**
 * The bench's budgets (decision 0135): figures a run of `npm run bench` must stay within, each a
 * ratio of two figures of the same run, so that a loaded or a faster machine moves both sides
 * alike. `npm run bench` checks the budget of every figure it printed and exits 1 when one is
 * out of it; the CI runs `npm run bench -- --only tenant-read` (.ci/run). Speed targets live
 * here, never in timed unit tests (house rule).
 */

/** A figure's budget: its lowest (or highest) allowed value, and why. */
export interface Budget {
  min?: number
  max?: number
  /** What the figure defends, with where its value comes from. */
  why: string
}

/** Budgets by figure name (the names `report` prints). */
export const BUDGETS: Record<string, Budget> = {
  list_to_floor_ratio_c50: {
    min: 0.4,
    why:
      "the list kit's fast path (server/lists/json-text-page.ts): the document list's page of 50 " +
      'against the floor of any tenant request, at 50 connections on PGlite. With the fast path ' +
      '0.53–0.94 in the runs of 2026-12-07 (0.53–0.65 on a quiet machine), through the ordinary ' +
      'Drizzle page and serializer 0.35 (bench/reports/list-kit-ab-2026-12-07.md, ' +
      "house-ab-2026-12-07.md). 0.5 failed a CI run at 0.46 under load; measured as two pairs' " +
      'sums it read 0.54 and 0.52 on a quiet machine (single pairs 0.46–0.59): 0.40 keeps three ' +
      'spreads of room and still fails the ordinary page',
  },
}

/**
 * The budgets `figures` break: one line per figure out of its budget (a figure absent, or
 * printed as n/a, is not checked: a run of other benches). Empty when all hold.
 */
export function brokenBudgets(
  figures: Record<string, number | null>,
  budgets: Record<string, Budget> = BUDGETS,
): string[] {
  const broken: string[] = []
  for (const [name, budget] of Object.entries(budgets)) {
    const value = figures[name]
    if (value === undefined || value === null) continue
    if (budget.min !== undefined && value < budget.min)
      broken.push(`${name}: ${value}, below its budget of ${budget.min} (${budget.why})`)
    if (budget.max !== undefined && value > budget.max)
      broken.push(`${name}: ${value}, above its budget of ${budget.max} (${budget.why})`)
  }
  return broken
}
