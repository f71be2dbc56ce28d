import type * as React from 'react'
import { cn } from '../../../lib/utils'
import type { Span } from '../api/types'

interface FindingButtonProps extends Omit<React.ComponentProps<'button'>, 'onSelect'> {
  /** The passage of the document this finding points at. */
  span: Span
  /** True while this finding's passage is the highlighted one. */
  active: boolean
  /** Called with `span` when the finding is chosen (click, Enter or Space). */
  onSelect: (span: Span) => void
}

/** A clickable finding; choosing it highlights its passage in the document text. */
export function FindingButton({ span, active, onSelect, className, ...props }: FindingButtonProps) {
  return (
    <button
      type="button"
      data-active={active || undefined}
      className={cn(
        'rounded-md text-left transition-colors outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring',
        active && 'bg-yellow-100 ring-1 ring-yellow-400 dark:bg-yellow-900/40',
        className,
      )}
      onClick={() => onSelect({ start: span.start, end: span.end })}
      {...props}
    />
  )
}
