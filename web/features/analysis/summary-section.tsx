import { FindingButton } from './finding-button'
import { FindingSection } from './finding-section'
import { isSameSpan } from './is-same-span'
import type { AnalysisResult, Span } from './types'

interface SummarySectionProps {
  summary: AnalysisResult['summary']
  highlight: Span | null
  onSelectSpan: (span: Span) => void
}

/** The summary as a run of sentence buttons, each pointing at the sentence in the document. */
export function SummarySection({ summary, highlight, onSelectSpan }: SummarySectionProps) {
  const { sentences, text } = summary
  return (
    <FindingSection
      title="Summary"
      emptyText="No summary."
      isEmpty={!text && sentences.length === 0}
    >
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
