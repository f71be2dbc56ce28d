import * as React from 'react'
import { cn } from '../../lib/utils'

/** Bordered surface grouping related content. */
export function Card({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div
      data-slot="card"
      className={cn('rounded-lg border bg-card text-card-foreground shadow-sm', className)}
      {...props}
    />
  )
}

/** Top area of a card holding its title and description. */
export function CardHeader({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div
      data-slot="card-header"
      className={cn('flex flex-col gap-1.5 p-6', className)}
      {...props}
    />
  )
}

/**
 * Card heading, an <h2> by default: most cards sit right under their page's <h1>, and heading
 * levels may only go down one at a time (axe's heading-order, issue 30). `level` gives another
 * rank: 3 for cards under a section's <h2>, 1 where the card is the page's only content.
 */
export function CardTitle({
  className,
  children,
  level = 2,
  ...props
}: React.ComponentProps<'h2'> & { level?: 1 | 2 | 3 }) {
  const Heading = `h${level}` as const
  return (
    <Heading
      data-slot="card-title"
      className={cn('text-base font-semibold leading-tight tracking-tight', className)}
      {...props}
    >
      {children}
    </Heading>
  )
}

/** Secondary text under a card title. */
export function CardDescription({ className, ...props }: React.ComponentProps<'p'>) {
  return (
    <p
      data-slot="card-description"
      className={cn('text-sm text-muted-foreground', className)}
      {...props}
    />
  )
}

/** Main body of a card. */
export function CardContent({ className, ...props }: React.ComponentProps<'div'>) {
  return <div data-slot="card-content" className={cn('p-6 pt-0', className)} {...props} />
}

/** Bottom row of a card, typically actions. */
export function CardFooter({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div
      data-slot="card-footer"
      className={cn('flex items-center p-6 pt-0', className)}
      {...props}
    />
  )
}
