/**
 * A comparison's changes as the screen lists them: filtered (all, substantive, form only) and
 * grouped clause by clause (consecutive changes of the same pair of clauses, in the revised
 * version's order), each group named after its clause; and how a change is cited in both
 * versions.
 */
import type { Comparison, ComparisonChange } from './api'

type Result = NonNullable<Comparison['result']>
type Clause = Result['baseClauses'][number]

/** Which changes the screen shows. */
export type Filter = 'all' | 'substantive' | 'format'

export interface ChangeGroup {
  key: string
  title: string
  /** The changes, each with its index in `result.changes`. */
  changes: { change: ComparisonChange; index: number }[]
}

/** A clause's name: "§ 3 Termination", "§ 3", "Governing Law", or null (or none at `index`). */
export function clauseName(clauses: readonly Clause[], index: number | null): string | null {
  const clause = index === null ? undefined : clauses[index]
  if (!clause) return null
  const parts = [
    clause.label ? `§ ${clause.label.replace(/^(section|article|clause)\s+/i, '')}` : null,
    clause.heading,
  ]
  const name = parts.filter(Boolean).join(' ')
  return name || null
}

/** The changes `filter` keeps, grouped clause by clause (see the module comment). */
export function changeGroups(result: Result, filter: Filter): ChangeGroup[] {
  const groups: (ChangeGroup & { pair: string })[] = []
  result.changes.forEach((change, index) => {
    if (filter === 'substantive' && !change.substantive) return
    if (filter === 'format' && change.substantive) return
    const pair = `${change.baseClause ?? '-'}/${change.revisedClause ?? '-'}`
    const last = groups[groups.length - 1]
    if (last && last.pair === pair) {
      last.changes.push({ change, index })
      return
    }
    const name =
      clauseName(result.revisedClauses, change.revisedClause) ??
      clauseName(result.baseClauses, change.baseClause)
    const position =
      change.revisedClause !== null
        ? `Clause ${change.revisedClause + 1} of the later version`
        : `Clause ${(change.baseClause ?? 0) + 1} of the earlier version`
    groups.push({
      key: `${pair}#${index}`,
      pair,
      title: name ?? position,
      changes: [{ change, index }],
    })
  })
  return groups.map(({ pair: _pair, ...group }) => group)
}

/** Where a change stands in both versions: "Earlier § 3, characters 250–262 · Later …". */
export function citationText(change: ComparisonChange, result: Result): string {
  const side = (
    name: string,
    clauses: readonly Clause[],
    clause: number | null,
    span: { start: number; end: number },
  ) => {
    const where = clauseName(clauses, clause)
    const at =
      span.end > span.start
        ? `characters ${span.start.toLocaleString('en-US')}–${span.end.toLocaleString('en-US')}`
        : `at character ${span.start.toLocaleString('en-US')} (nothing there)`
    return `${name}${where ? ` ${where}` : ''}, ${at}`
  }
  return `${side('Earlier', result.baseClauses, change.baseClause, change.base)} · ${side('Later', result.revisedClauses, change.revisedClause, change.revised)}`
}
