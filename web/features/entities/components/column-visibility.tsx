interface ColumnVisibilityProps {
  /** Every column id, in order (own columns, then keys found in the data). */
  columns: readonly string[]
  hidden: ReadonlySet<string>
  onHiddenChange: (hidden: ReadonlySet<string>) => void
}

/** One checkbox per column: checked = shown. */
export function ColumnVisibility({ columns, hidden, onHiddenChange }: ColumnVisibilityProps) {
  return (
    <fieldset className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm">
      <legend className="sr-only">Columns</legend>
      <span className="font-medium">Columns:</span>
      {columns.map((id) => (
        <label key={id} className="flex items-center gap-1">
          <input
            type="checkbox"
            aria-label={`Show column ${id}`}
            checked={!hidden.has(id)}
            onChange={() => {
              const next = new Set(hidden)
              if (next.has(id)) next.delete(id)
              else next.add(id)
              onHiddenChange(next)
            }}
          />
          {id}
        </label>
      ))}
    </fieldset>
  )
}
