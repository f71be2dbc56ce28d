import { Badge } from '../../components/ui/badge'
import { FindingButton } from './finding-button'
import { FindingSection } from './finding-section'
import { groupRisksBySeverity } from './group-findings'
import { isSameSpan } from './is-same-span'
import { orientRisks } from './orient-risks'
import type { Risk, Severity, Span } from './types'

interface RisksSectionProps {
  risks: readonly Risk[]
  /** The party the firm acts for (a party name), or null for neutral risks. */
  ourParty: string | null
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

/**
 * Risks grouped high → medium → low, each a button with its title, explanation and whom it binds,
 * oriented to `ourParty` when one is chosen (see orientRisks).
 */
export function RisksSection({ risks, ourParty, highlight, onSelectSpan }: RisksSectionProps) {
  return (
    <FindingSection title="Risks" emptyText="No risks found." isEmpty={risks.length === 0}>
      <div className="flex flex-col gap-3">
        {groupRisksBySeverity(orientRisks(risks, ourParty)).map(({ severity, risks: group }) => (
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
                        Not in the contract{risk.bindsLabel ? ` · ${risk.bindsLabel}` : ''}
                      </span>
                    </div>
                  ) : (
                    <FindingButton
                      span={risk}
                      active={isSameSpan(risk, highlight)}
                      onSelect={onSelectSpan}
                      aria-label={`${risk.title}: ${risk.explanation}${risk.bindsLabel ? ` ${risk.bindsLabel}.` : ''}`}
                      className="flex w-full flex-col gap-0.5 border px-2 py-1.5 text-sm"
                    >
                      <span className="font-medium">{risk.title}</span>
                      <span className="text-muted-foreground">{risk.explanation}</span>
                      {risk.bindsLabel && (
                        <span className="text-xs font-medium">{risk.bindsLabel}</span>
                      )}
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
