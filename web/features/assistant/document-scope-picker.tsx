/** A document the assistant can be limited to. */
export interface ScopeDocument {
  id: string
  title: string
}

interface DocumentScopePickerProps {
  /** The organisation's (or app's) documents, loaded by the app layer; undefined while loading. */
  documents: readonly ScopeDocument[] | undefined
  /** Why the documents could not be loaded (the server's detail), or null. */
  error: Error | null
  /** The chosen document ids; empty = all of the organisation's documents. */
  value: string[]
  onChange: (ids: string[]) => void
}

/**
 * The assistant's scope: a checkbox per document of the organisation (or app), so answers quote
 * only the chosen ones; none ticked = all documents. The server checks each id is the
 * organisation's (issue 25). A list still loading or not loaded says so, not 'No documents yet.'
 */
export function DocumentScopePicker({
  documents,
  error,
  value,
  onChange,
}: DocumentScopePickerProps) {
  const listed = documents ?? []
  const chosen = new Set(value)
  const summary =
    value.length === 0
      ? 'All documents'
      : value.length === 1
        ? (listed.find((d) => d.id === value[0])?.title ?? '1 document')
        : `${value.length} documents`
  return (
    <details className="rounded-md border px-3 py-2 text-sm" open={value.length > 0}>
      <summary className="cursor-pointer">
        Answer from: <span data-testid="assistant-scope">{summary}</span>
      </summary>
      <fieldset className="mt-2 flex max-h-48 flex-col gap-1 overflow-y-auto">
        <legend className="sr-only">Limit the assistant to these documents</legend>
        {listed.map((d) => (
          <label key={d.id} className="flex items-center gap-2">
            <input
              type="checkbox"
              checked={chosen.has(d.id)}
              onChange={(e) =>
                onChange(e.target.checked ? [...value, d.id] : value.filter((id) => id !== d.id))
              }
            />
            {d.title}
          </label>
        ))}
        {error ? (
          <p role="alert" className="text-destructive">
            The documents could not be loaded: {error.message}
          </p>
        ) : documents === undefined ? (
          <p className="text-muted-foreground">Loading documents…</p>
        ) : (
          documents.length === 0 && <p className="text-muted-foreground">No documents yet.</p>
        )}
      </fieldset>
    </details>
  )
}
