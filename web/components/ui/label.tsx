import * as React from 'react'
import { cn } from '../../lib/utils'

/** Form label; pass `htmlFor` (or wrap the control) so the control gets an accessible name. */
export function Label({ className, htmlFor, ...props }: React.ComponentProps<'label'>) {
  return (
    <label
      data-slot="label"
      htmlFor={htmlFor}
      className={cn(
        'text-sm font-medium leading-none select-none peer-disabled:cursor-not-allowed peer-disabled:opacity-50',
        className,
      )}
      {...props}
    />
  )
}
