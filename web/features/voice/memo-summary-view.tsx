import type { ReactNode } from 'react'
import type { MemoSummary } from './api'
import { clock } from './clock'

/**
 * A memo's summary (decision 0056): key points, decisions, action items (owner — task · due date)
 * and names, each with the time of the segment it cites; clicking a time calls `onCite` with that
 * segment's start in seconds (the player plays from there).
 */
export function MemoSummaryView({
  title,
  summary,
  onCite,
}: {
  title: string
  summary: MemoSummary
  onCite: (start: number) => void
}) {
  const { keyPoints, decisions, actionItems, names } = summary
  const empty = [keyPoints, decisions, actionItems, names].every((list) => list.length === 0)
  const cite = (point: { start: number; text: string }) => (
    <button
      type="button"
      onClick={() => onCite(point.start)}
      aria-label={`Play from ${clock(point.start)}: ${point.text}`}
      className="mr-2 font-mono text-xs text-muted-foreground hover:underline"
    >
      {clock(point.start)}
    </button>
  )
  return (
    <section aria-label={`Summary of ${title}`} className="flex flex-col gap-3 text-sm">
      {empty && <p className="text-muted-foreground">Nothing to summarise in this memo.</p>}
      <Section heading="Key points">
        {keyPoints.map((point) => (
          <li key={`${point.segment}:${point.text}`}>
            {cite(point)}
            {point.text}
          </li>
        ))}
      </Section>
      <Section heading="Decisions">
        {decisions.map((point) => (
          <li key={`${point.segment}:${point.text}`}>
            {cite(point)}
            {point.text}
          </li>
        ))}
      </Section>
      <Section heading="Action items">
        {actionItems.map((item) => (
          <li key={`${item.segment}:${item.text}`}>
            {cite(item)}
            <span className="font-medium">{item.owner ?? 'Unassigned'}</span> — {item.task}
            {item.due && <span className="text-muted-foreground"> · due {item.due}</span>}
          </li>
        ))}
      </Section>
      {names.length > 0 && (
        <div>
          <h4 className="mb-1 font-medium">Names</h4>
          <ul aria-label="Names" className="flex flex-wrap gap-2">
            {names.map((name) => (
              <li key={name.name} className="rounded bg-muted px-2 py-0.5">
                {name.name}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  )
}

function Section({ heading, children }: { heading: string; children: ReactNode[] }) {
  if (children.length === 0) return null
  return (
    <div>
      <h4 className="mb-1 font-medium">{heading}</h4>
      <ul aria-label={heading} className="flex flex-col gap-1">
        {children}
      </ul>
    </div>
  )
}
