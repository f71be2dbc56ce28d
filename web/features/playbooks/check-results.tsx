import { useEffect, useRef, useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Badge } from '../../components/ui/badge'
import {
  checkedDocumentQuery,
  checkRedlineHref,
  type PlaybookCheck,
  type PositionResult,
} from './api'

const VERDICT_TEXT: Record<PositionResult['verdict'], string> = {
  compliant: 'Compliant',
  fallback: 'Fallback',
  deviation: 'Deviation',
  missing: 'Missing',
}

/** "Fallback 2", "Deviation": a position's verdict in words. */
export function verdictText(r: Pick<PositionResult, 'verdict' | 'fallbackRank'>): string {
  return r.verdict === 'fallback' && r.fallbackRank
    ? `Fallback ${r.fallbackRank}`
    : VERDICT_TEXT[r.verdict]
}

/**
 * A check's results, one button per position (its verdict, what decided it); choosing one marks
 * its citation in the document's text beside the list and scrolls to it (as the comparisons
 * screen marks a change), and shows the negotiator's guidance and the suggested redline.
 */
export function CheckResults(props: { orgId: string; check: PlaybookCheck }) {
  const { check } = props
  const document = useQuery(checkedDocumentQuery(props.orgId, check.documentId))
  const [chosen, setChosen] = useState<string | null>(null)
  const result = check.results.find((r) => r.positionId === chosen) ?? null
  const counts = check.counts
  return (
    <div className="flex flex-col gap-3">
      {counts && (
        <p className="text-sm">
          {counts.compliant} compliant, {counts.fallback} on a fallback, {counts.deviation}{' '}
          deviating, {counts.missing} missing
        </p>
      )}
      <a
        className="text-sm underline-offset-4 hover:underline"
        href={checkRedlineHref(props.orgId, check.playbookId, check.id)}
      >
        Suggested redline (Word, tracked changes)
      </a>
      <div className="grid gap-4 xl:grid-cols-2">
        <ul aria-label="Results per position" className="flex flex-col gap-2">
          {check.results.map((r) => (
            <li key={r.positionId}>
              <button
                type="button"
                aria-pressed={r.positionId === chosen}
                onClick={() => setChosen(r.positionId)}
                className="w-full rounded-md border p-3 text-left text-sm hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none aria-pressed:bg-accent"
              >
                <span className="flex flex-wrap items-center gap-2 font-medium">
                  <Badge variant={r.verdict === 'compliant' ? 'secondary' : 'outline'}>
                    {verdictText(r)}
                  </Badge>
                  {r.title}
                  {r.verdict !== 'compliant' && (
                    <span className="text-xs text-muted-foreground">{r.severity} severity</span>
                  )}
                </span>
                <span className="mt-1 block text-muted-foreground">{r.explanation}</span>
                {r.citation && (
                  <span className="mt-1 block text-xs">
                    Cited: characters {r.citation.start}–{r.citation.end}
                  </span>
                )}
              </button>
            </li>
          ))}
        </ul>
        <div className="flex min-w-0 flex-col gap-3">
          {result && (
            <section aria-label="Suggested redline" className="flex flex-col gap-1 text-sm">
              {result.redline ? (
                <>
                  <h4 className="font-medium">
                    Propose {result.redline.replaces ? 'instead' : '(to insert)'}
                  </h4>
                  <p className="font-serif">{result.redline.language}</p>
                  {result.redline.fallbackLanguage && (
                    <p className="font-serif text-muted-foreground">
                      Or, as a fallback: {result.redline.fallbackLanguage}
                    </p>
                  )}
                </>
              ) : (
                <p>Nothing to propose: the clause takes the preferred position.</p>
              )}
              {result.guidance && (
                <p className="text-muted-foreground">Guidance: {result.guidance}</p>
              )}
            </section>
          )}
          <CitedText
            content={document.data?.content}
            title={document.data?.title}
            span={result?.citation ?? null}
          />
        </div>
      </div>
    </div>
  )
}

/** The document's text with the chosen citation marked and scrolled into view. */
function CitedText(props: {
  content: string | undefined
  title: string | undefined
  span: { start: number; end: number } | null
}) {
  const markRef = useRef<HTMLElement>(null)
  const regionRef = useRef<HTMLDivElement>(null)
  const { content, span } = props
  useEffect(() => {
    const mark = markRef.current
    const region = regionRef.current
    if (!mark || !region) return
    const offset = mark.getBoundingClientRect().top - region.getBoundingClientRect().top
    region.scrollTo?.({ top: Math.max(0, region.scrollTop + offset - region.clientHeight / 2) })
  }, [span])
  const at =
    span && content !== undefined && span.end <= content.length && span.start < span.end
      ? span
      : null
  return (
    <div
      ref={regionRef}
      role="region"
      aria-label={`Text of ${props.title ?? 'the document'}`}
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region must be focusable so keyboard users can scroll it (WCAG 2.1.1)
      tabIndex={0}
      className="max-h-[70vh] overflow-auto rounded-md border bg-background p-4 font-serif text-sm leading-relaxed break-words whitespace-pre-wrap focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
    >
      {content === undefined ? (
        <span className="text-muted-foreground">Loading…</span>
      ) : at ? (
        <>
          {content.slice(0, at.start)}
          <mark
            ref={markRef}
            data-testid="citation-mark"
            className="rounded-sm bg-yellow-200 text-inherit dark:bg-yellow-800/60"
          >
            {content.slice(at.start, at.end)}
          </mark>
          {content.slice(at.end)}
        </>
      ) : (
        content
      )}
    </div>
  )
}
