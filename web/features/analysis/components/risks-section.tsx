import { Badge } from '../../../components/ui/badge'
import { FindingButton } from './finding-button'
import { FindingSection } from './finding-section'
import { groupRisksBySeverity } from './group-findings'
import { isSameSpan } from './is-same-span'
import type { Risk, Severity, Span } from '../api/types'

interface RisksSectionProps {
  /** The risks as the server returns them: severity and `whose` already oriented. */
  risks: readonly Risk[]
  highlight: Span | null
  onSelectSpan: (span: Span) => void
}

const SEVERITY_LABEL: Record<Severity, string> = {
  high: 'High severity',
  medium: 'Medium severity',
  low: 'Low severity',
}

const SEVERITY_BADGE: Record<Severity, 'destructive' | 'default' | 'secondary'> = {
  high: 'destructive',
  medium: 'default',
  low: 'secondary',
}

/** "Our risk: The cited clause binds …", or null for a risk stored without a side. */
function whoseText(risk: Risk): string | null {
  return risk.whose ? `${risk.whose.label}: ${risk.whose.reason}` : null
}

/**
 * Risks grouped high → medium → low, each a button with its title, explanation and whose risk it
 * is and why (oriented by the server to the document's "we act for" choice).
 */
export function RisksSection({ risks, highlight, onSelectSpan }: RisksSectionProps) {
  return (
    <FindingSection title="Risks" emptyText="No risks found." isEmpty={risks.length === 0}>
      <div className="flex flex-col gap-3">
        {groupRisksBySeverity(risks).map(({ severity, risks: group }) => (
          <section
            key={severity}
            aria-label={SEVERITY_LABEL[severity]}
            className="flex flex-col gap-1"
          >
            <h4 className="flex items-center gap-2 text-xs font-semibold tracking-wide uppercase">
              <Badge variant={SEVERITY_BADGE[severity]}>{severity}</Badge>
              <span className="text-muted-foreground">
                {SEVERITY_LABEL[severity]} ({group.length})
              </span>
            </h4>
            <ul className="flex flex-col gap-1">
              {group.map((risk) => (
                <li key={`${risk.code}-${risk.start}-${risk.end}`}>
                  {risk.absent ? (
                    // An absent clause has no passage to highlight: plain text, not a button.
                    <div className="flex w-full flex-col gap-0.5 rounded-md border px-2 py-1.5 text-sm">
                      <span className="font-medium">{risk.title}</span>
                      <span className="text-muted-foreground">{risk.explanation}</span>
                      <span className="text-xs font-medium">
                        Not in the contract{risk.whose ? ` · ${whoseText(risk)}` : ''}
                      </span>
                    </div>
                  ) : (
                    <FindingButton
                      span={risk}
                      active={isSameSpan(risk, highlight)}
                      onSelect={onSelectSpan}
                      aria-label={`${risk.title}: ${risk.explanation}${risk.whose ? ` ${whoseText(risk)}` : ''}`}
                      className="flex w-full flex-col gap-0.5 border px-2 py-1.5 text-sm"
                    >
                      <span className="font-medium">{risk.title}</span>
                      <span className="text-muted-foreground">{risk.explanation}</span>
                      {risk.whose && <span className="text-xs font-medium">{whoseText(risk)}</span>}
                    </FindingButton>
                  )}
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </FindingSection>
  )
}
