import { Badge } from '../../../components/ui/badge'
import { FindingButton } from './finding-button'
import { FindingSection } from './finding-section'
import { groupClausesByCategory } from './group-findings'
import { isSameSpan } from './is-same-span'
import type { Clause, Span } from '../api/types'

interface ClausesSectionProps {
  clauses: readonly Clause[]
  highlight: Span | null
  onSelectSpan: (span: Span) => void
}

/** A 0–1 confidence as a whole percentage, e.g. 0.814 → '81%'. */
function percent(confidence: number): string {
  return `${Math.round(confidence * 100)}%`
}

/** Clauses grouped by CUAD category, each a button quoting the clause with its confidence. */
export function ClausesSection({ clauses, highlight, onSelectSpan }: ClausesSectionProps) {
  return (
    <FindingSection title="Clauses" emptyText="No clauses found." isEmpty={clauses.length === 0}>
      <div className="flex flex-col gap-3">
        {groupClausesByCategory(clauses).map(({ category, clauses: group }) => (
          <section key={category} aria-label={category} className="flex flex-col gap-1">
            <h4 className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">
              {category}
            </h4>
            <ul className="flex flex-col gap-1">
              {group.map((clause) => (
                <li key={`${clause.start}-${clause.end}`}>
                  <FindingButton
                    span={clause}
                    active={isSameSpan(clause, highlight)}
                    onSelect={onSelectSpan}
                    aria-label={`${clause.text} (${percent(clause.confidence)} confidence)`}
                    className="flex w-full items-start justify-between gap-2 border px-2 py-1.5 text-sm"
                  >
                    <span className="line-clamp-3">{clause.text}</span>
                    <Badge variant="secondary">{percent(clause.confidence)}</Badge>
                  </FindingButton>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </FindingSection>
  )
}
