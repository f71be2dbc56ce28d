import type { ReactNode } from 'react'

interface PageHeaderProps {
  title: string
  description?: ReactNode
  /** Right-aligned controls, e.g. a badge or buttons. */
  actions?: ReactNode
}

/** A screen's <h1> (also the document title) with an optional description and actions. */
export function PageHeader({ title, description, actions }: PageHeaderProps) {
  return (
    <div className="mb-6 flex flex-wrap items-start justify-between gap-4">
      <title>{`${title} · Lexdesk`}</title>
      <div className="space-y-1">
        <h1 className="font-serif text-2xl font-semibold tracking-tight">{title}</h1>
        {description ? <p className="text-sm text-muted-foreground">{description}</p> : null}
      </div>
      {actions ? <div className="flex items-center gap-2">{actions}</div> : null}
    </div>
  )
}
