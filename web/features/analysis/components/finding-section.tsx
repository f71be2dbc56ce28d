import type * as React from 'react'
import { useId } from 'react'

interface FindingSectionProps {
  /** Visible heading; also the section's accessible name. */
  title: string
  /** Shown instead of the children when the section has nothing to list. */
  emptyText: string
  isEmpty: boolean
  children: React.ReactNode
}

/** A titled region of the pretty analysis view, with a message when it found nothing. */
export function FindingSection({ title, emptyText, isEmpty, children }: FindingSectionProps) {
  const headingId = useId()
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-2">
      <h3 id={headingId} className="text-sm font-semibold">
        {title}
      </h3>
      {isEmpty ? <p className="text-sm text-muted-foreground">{emptyText}</p> : children}
    </section>
  )
}
