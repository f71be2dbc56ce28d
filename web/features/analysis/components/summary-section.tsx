import { DealSheetView } from './deal-sheet-view'
import { FindingButton } from './finding-button'
import { FindingSection } from './finding-section'
import { isSameSpan } from './is-same-span'
import type { AnalysisResult, Span } from '../api/types'

interface SummarySectionProps {
  summary: AnalysisResult['summary']
  highlight: Span | null
  onSelectSpan: (span: Span) => void
}

/**
 * The summary: the deal sheet when the analysis has one; for analyses stored before it, the
 * key-facts header (type, parties, date, term, consideration, law) and its
 * sentences, each a button pointing at its passage in the document.
 */
export function SummarySection({ summary, highlight, onSelectSpan }: SummarySectionProps) {
  const { sentences, text } = summary
  const header = summary.header ?? []
  if (summary.dealSheet)
    return (
      <FindingSection title="Deal sheet" emptyText="No deal sheet." isEmpty={false}>
        <DealSheetView
          sheet={summary.dealSheet}
          highlight={highlight}
          onSelectSpan={onSelectSpan}
        />
      </FindingSection>
    )
  return (
    <FindingSection
      title="Summary"
      emptyText="No summary."
      isEmpty={!text && sentences.length === 0}
    >
      {header.length > 0 && (
        <dl
          aria-label="Key facts"
          className="mb-2 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm"
        >
          {header.map((fact) => (
            <div key={fact.label} className="contents">
              <dt className="py-0.5 text-muted-foreground">{fact.label}</dt>
              <dd>
                <FindingButton
                  span={fact}
                  active={isSameSpan(fact, highlight)}
                  onSelect={onSelectSpan}
                  aria-label={`Summary fact ${fact.label}: ${fact.value}`}
                  className="px-1.5 py-0.5 text-sm"
                >
                  {fact.value}
                </FindingButton>
              </dd>
            </div>
          ))}
        </dl>
      )}
      {sentences.length > 0 ? (
        <ul className="flex flex-col gap-1 text-sm leading-relaxed">
          {sentences.map((sentence) => (
            <li key={`${sentence.start}-${sentence.end}`}>
              <FindingButton
                span={sentence}
                active={isSameSpan(sentence, highlight)}
                onSelect={onSelectSpan}
                className="px-1.5 py-0.5"
              >
                {sentence.text}
              </FindingButton>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm leading-relaxed">{text}</p>
      )}
    </FindingSection>
  )
}
