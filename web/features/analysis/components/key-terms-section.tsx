import { FindingButton } from './finding-button'
import { FindingSection } from './finding-section'
import { isSameSpan } from './is-same-span'
import type { KeyTerm, KeyTerms, Span } from '../api/types'

interface KeyTermsSectionProps {
  keyTerms: KeyTerms
  highlight: Span | null
  onSelectSpan: (span: Span) => void
}

/** Display order and labels of the single-valued key terms. */
const TERM_LABELS: readonly [Exclude<keyof KeyTerms, 'parties'>, string][] = [
  ['agreementDate', 'Agreement date'],
  ['effectiveDate', 'Effective date'],
  ['expirationDate', 'Expiration date'],
  ['governingLaw', 'Governing law'],
  ['renewalTerm', 'Renewal term'],
  ['noticePeriod', 'Notice period'],
]

/** Parties and dated/legal key terms as a definition list of buttons that highlight their source. */
export function KeyTermsSection({ keyTerms, highlight, onSelectSpan }: KeyTermsSectionProps) {
  const terms = TERM_LABELS.flatMap(([key, label]) => {
    const term: KeyTerm | null = keyTerms[key]
    return term ? [{ key, label, term }] : []
  })
  const buttonClass = 'px-1.5 py-0.5 text-sm'
  return (
    <FindingSection
      title="Key terms"
      emptyText="No key terms found."
      isEmpty={keyTerms.parties.length === 0 && terms.length === 0}
    >
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
        {keyTerms.parties.length > 0 && (
          <div className="contents">
            <dt className="py-0.5 text-muted-foreground">Parties</dt>
            <dd className="flex flex-wrap gap-1">
              {keyTerms.parties.map((party) => (
                <FindingButton
                  key={`${party.start}-${party.end}`}
                  span={party}
                  active={isSameSpan(party, highlight)}
                  onSelect={onSelectSpan}
                  aria-label={`Party: ${party.name}${party.role ? `, ${party.role}` : ''}`}
                  className={buttonClass}
                >
                  {party.name}
                  {party.role && <span className="text-muted-foreground"> ({party.role})</span>}
                </FindingButton>
              ))}
            </dd>
          </div>
        )}
        {terms.map(({ key, label, term }) => (
          <div key={key} className="contents">
            <dt className="py-0.5 text-muted-foreground">{label}</dt>
            <dd>
              <FindingButton
                span={term}
                active={isSameSpan(term, highlight)}
                onSelect={onSelectSpan}
                aria-label={`${label}: ${term.value}`}
                className={buttonClass}
              >
                {term.value}
              </FindingButton>
            </dd>
          </div>
        ))}
      </dl>
    </FindingSection>
  )
}
