import * as React from 'react'
import { cn } from '../../lib/utils'

export interface ProgressProps extends Omit<React.ComponentProps<'div'>, 'children'> {
  /** Percentage 0–100; values outside are clamped. Omit (or null) for an indeterminate bar. */
  value?: number | null
}

/** Horizontal progress bar with role="progressbar"; give it an aria-label. */
export function Progress({ className, value, ...props }: ProgressProps) {
  const determinate = typeof value === 'number' && Number.isFinite(value)
  const pct = determinate ? Math.min(100, Math.max(0, value)) : 0
  return (
    <div
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={determinate ? Math.round(pct) : undefined}
      data-slot="progress"
      className={cn('relative h-2 w-full overflow-hidden rounded-full bg-primary/20', className)}
      {...props}
    >
      <div
        className={cn(
          'h-full bg-primary transition-all',
          determinate ? 'w-full' : 'w-1/3 animate-pulse',
        )}
        style={determinate ? { transform: `translateX(-${100 - pct}%)` } : undefined}
      />
    </div>
  )
}
