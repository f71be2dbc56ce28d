import type { ReactNode } from 'react'
import type { MemoSummary } from '../api/recordings'
import { clock } from './clock'

/** What the view needs of a transcript segment: whether the engine heard it with low confidence. */
export interface HeardSegment {
  lowConfidence: boolean
}

/**
 * A memo's summary (decision 0056): key points, decisions, action items (owner — task · due date)
 * and names, each with the time of the segment it cites; clicking a time calls `onCite` with that
 * segment's start in seconds (the player plays from there). Given the transcript's `segments`
 * (by position), it says how many the speech engine heard with low confidence, and marks each
 * point citing one, so a summary of misheard speech is not taken at its word (issue 43).
 */
export function MemoSummaryView({
  title,
  summary,
  onCite,
  segments = [],
}: {
  title: string
  summary: MemoSummary
  onCite: (start: number) => void
  segments?: readonly HeardSegment[]
}) {
  const { keyPoints, decisions, actionItems, names } = summary
  const low = segments.filter((segment) => segment.lowConfidence).length
  const empty = [keyPoints, decisions, actionItems, names].every((list) => list.length === 0)
  return (
    <section aria-label={`Summary of ${title}`} className="flex flex-col gap-3 text-sm">
      {low > 0 && (
        <p role="note" className="rounded-md border border-destructive/40 p-2 text-sm">
          {lowConfidenceNote(low, segments.length)}
        </p>
      )}
      {empty && <p className="text-muted-foreground">Nothing to summarise in this memo.</p>}
      <PointList heading="Key points" points={keyPoints} onCite={onCite} segments={segments} />
      <PointList heading="Decisions" points={decisions} onCite={onCite} segments={segments} />
      <PointList
        heading="Action items"
        points={actionItems}
        onCite={onCite}
        segments={segments}
        say={(item) => (
          <>
            <span className="font-medium">{item.owner ?? 'Unassigned'}</span> — {item.task}
            {item.due && <span className="text-muted-foreground"> · due {item.due}</span>}
          </>
        )}
      />
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

/** The summary's warning that `low` of its `total` segments were heard with low confidence. */
export function lowConfidenceNote(low: number, total: number): string {
  const check = 'check against the audio before relying on this summary'
  if (low === total)
    return `Every segment of this memo was heard with low confidence by the speech engine: ${check}.`
  return `${low} of ${total} segments of this memo ${low === 1 ? 'was' : 'were'} heard with low confidence by the speech engine (points taken from ${low === 1 ? 'it are' : 'them are'} marked): ${check}.`
}

/** A point of the summary: its words and the transcript segment it cites (position, start). */
interface CitedPoint {
  segment: number
  start: number
  text: string
}

/**
 * One list of the summary under its `heading` (nothing when empty): each point opens with its
 * time (a button playing from there, named with the point's words), then what `say` makes of it
 * (its text by default), then '(low confidence)' when the segment it cites was heard so.
 */
function PointList<Point extends CitedPoint>({
  heading,
  points,
  onCite,
  segments,
  say = (point) => point.text,
}: {
  heading: string
  points: readonly Point[]
  onCite: (start: number) => void
  segments: readonly HeardSegment[]
  say?: (point: Point) => ReactNode
}) {
  if (points.length === 0) return null
  return (
    <div>
      <h4 className="mb-1 font-medium">{heading}</h4>
      <ul aria-label={heading} className="flex flex-col gap-1">
        {points.map((point) => (
          <li key={`${point.segment}:${point.text}`}>
            <button
              type="button"
              onClick={() => onCite(point.start)}
              aria-label={`Play from ${clock(point.start)}: ${point.text}`}
              className="mr-2 font-mono text-xs text-muted-foreground hover:underline"
            >
              {clock(point.start)}
            </button>
            {say(point)}
            {segments[point.segment]?.lowConfidence && (
              <span className="ml-1 text-xs font-medium text-destructive">(low confidence)</span>
            )}
          </li>
        ))}
      </ul>
    </div>
  )
}
