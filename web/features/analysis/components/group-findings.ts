/** Pure grouping of analysis findings for display. */
import type { Clause, Risk, Severity } from '../api/types'

/** Severity display order: most severe first. */
export const SEVERITY_ORDER: readonly Severity[] = ['high', 'medium', 'low']

/**
 * Groups risks by severity in the order high, medium, low, omitting empty groups. Within a group
 * risks keep document order (by `start`).
 */
export function groupRisksBySeverity<R extends Risk>(
  risks: readonly R[],
): { severity: Severity; risks: R[] }[] {
  return SEVERITY_ORDER.map((severity) => ({
    severity,
    risks: risks.filter((r) => r.severity === severity).sort((a, b) => a.start - b.start),
  })).filter((g) => g.risks.length > 0)
}

/**
 * Groups clauses by category. Groups are ordered by where their first clause appears in the
 * document, and clauses within a group by `start`, so the list reads in document order.
 */
export function groupClausesByCategory(
  clauses: readonly Clause[],
): { category: string; clauses: Clause[] }[] {
  const groups = new Map<string, Clause[]>()
  for (const clause of [...clauses].sort((a, b) => a.start - b.start)) {
    const group = groups.get(clause.category)
    if (group) group.push(clause)
    else groups.set(clause.category, [clause])
  }
  return [...groups].map(([category, list]) => ({ category, clauses: list }))
}
