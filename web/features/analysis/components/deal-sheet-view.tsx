import { toast } from 'sonner'
import { Button } from '../../../components/ui/button'
import { dealSheetMarkdown } from './deal-sheet-text'
import { FindingButton } from './finding-button'
import { isSameSpan } from './is-same-span'
import type { DealSheet, Span } from '../api/types'

interface DealSheetViewProps {
  sheet: DealSheet
  highlight: Span | null
  onSelectSpan: (span: Span) => void
}

/**
 * The deal sheet: each fixed line with its value (or 'Not found') and a numbered button per
 * citation pointing at its passage; then the points for a lawyer's attention; and a Copy button
 * that exports it as Markdown with its quotes.
 */
export function DealSheetView({ sheet, highlight, onSelectSpan }: DealSheetViewProps) {
  const copy = () =>
    navigator.clipboard.writeText(dealSheetMarkdown('Deal sheet', sheet)).then(
      () => toast.success('Deal sheet copied'),
      () => toast.error('The clipboard is not available'),
    )
  return (
    <div className="flex flex-col gap-3">
      <dl
        aria-label="Deal sheet"
        className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1.5 text-sm"
      >
        {sheet.lines.map((line) => (
          <div key={line.key} className="contents">
            <dt className="py-0.5 text-muted-foreground">{line.label}</dt>
            <dd className="flex flex-wrap items-baseline gap-1">
              {line.value === null ? (
                <span className="text-muted-foreground italic">Not found</span>
              ) : (
                <span>{line.value}</span>
              )}
              {line.citations.map((cite, i) => (
                <FindingButton
                  key={`${cite.start}-${cite.end}`}
                  span={cite}
                  active={isSameSpan(cite, highlight)}
                  onSelect={onSelectSpan}
                  aria-label={`${line.label}, source ${i + 1}`}
                  title={cite.text}
                  className="px-1 text-xs text-muted-foreground underline"
                >
                  [{i + 1}]
                </FindingButton>
              ))}
            </dd>
          </div>
        ))}
      </dl>
      {sheet.attention.length > 0 && (
        <div>
          <h4 className="text-sm font-medium">Points for a lawyer’s attention</h4>
          <ul aria-label="Points for a lawyer’s attention" className="list-disc pl-5 text-sm">
            {sheet.attention.map((point) => (
              <li key={point.text}>
                {point.text}
                {point.citations.map((cite, i) => (
                  <FindingButton
                    key={`${cite.start}-${cite.end}`}
                    span={cite}
                    active={isSameSpan(cite, highlight)}
                    onSelect={onSelectSpan}
                    aria-label={`${point.text}, source ${i + 1}`}
                    title={cite.text}
                    className="ml-1 px-1 text-xs text-muted-foreground underline"
                  >
                    [{i + 1}]
                  </FindingButton>
                ))}
              </li>
            ))}
          </ul>
        </div>
      )}
      <div>
        <Button type="button" variant="outline" size="sm" onClick={() => void copy()}>
          Copy deal sheet
        </Button>
      </div>
    </div>
  )
}
