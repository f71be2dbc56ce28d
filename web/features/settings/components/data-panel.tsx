import { useId, type ReactNode } from 'react'

/** One panel of the Data Management page: a region named by its heading, with a description. */
export function DataPanel(props: { title: string; description: ReactNode; children: ReactNode }) {
  const headingId = useId()
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3 rounded-lg border p-4">
      <h2 id={headingId} className="text-lg font-semibold">
        {props.title}
      </h2>
      <p className="text-sm text-muted-foreground">{props.description}</p>
      {props.children}
    </section>
  )
}
