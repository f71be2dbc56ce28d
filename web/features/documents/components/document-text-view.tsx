import { useEffect, useRef } from 'react'
import type { Span } from '../api/types'

interface DocumentTextViewProps {
  content: string
  /** Passage to mark and scroll to; a new object re-scrolls even for the same range. */
  highlight: Span | null
}

/** Clamps `span` to the content; null when nothing is left to mark. */
function clampSpan(span: Span | null, length: number): Span | null {
  if (!span) return null
  const start = Math.max(0, Math.min(span.start, length))
  const end = Math.max(start, Math.min(span.end, length))
  return end > start ? { start, end } : null
}

/**
 * The document's text, pre-wrapped and scrollable, with `<mark>` around
 * `content.slice(highlight.start, highlight.end)`, scrolled into view when it changes.
 */
export function DocumentTextView({ content, highlight }: DocumentTextViewProps) {
  const markRef = useRef<HTMLElement>(null)
  const regionRef = useRef<HTMLDivElement>(null)
  const span = clampSpan(highlight, content.length)

  useEffect(() => {
    const mark = markRef.current
    const region = regionRef.current
    if (!mark || !region) return
    // Centre the mark in the text region, measured from the region's top.
    const box = region.getBoundingClientRect()
    const offset = mark.getBoundingClientRect().top - box.top
    const top = region.scrollTop + offset - region.clientHeight / 2 + mark.offsetHeight / 2
    region.scrollTo?.({ top: Math.max(0, top), behavior: 'smooth' })
    // The page moves only when the text is out of sight: beside the analysis (sticky) it never
    // is, so the clicked finding stays in view; stacked above it, the reader is taken up to it.
    if (box.bottom < 0 || box.top > window.innerHeight)
      region.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' })
  }, [highlight])

  return (
    <div
      ref={regionRef}
      role="region"
      aria-label="Document text"
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region must be focusable so keyboard users can scroll it (WCAG 2.1.1)
      tabIndex={0}
      className="max-h-[35vh] overflow-auto 2xl:max-h-[70vh] rounded-md border bg-background p-4 font-serif text-sm leading-relaxed break-words whitespace-pre-wrap focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
    >
      {span ? (
        <>
          {content.slice(0, span.start)}
          <mark
            ref={markRef}
            data-testid="highlight"
            className="scroll-my-8 rounded-sm bg-yellow-200 text-inherit dark:bg-yellow-700/60"
          >
            {content.slice(span.start, span.end)}
          </mark>
          {content.slice(span.end)}
        </>
      ) : (
        content
      )}
    </div>
  )
}
