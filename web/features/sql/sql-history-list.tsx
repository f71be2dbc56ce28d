import type { SqlHistoryEntry } from './api'

const time = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'medium' })

/**
 * The caller's last queries, newest first; choosing one puts its text back in the editor.
 * `entries` is undefined while they load; `error` (the failed load's) is said, not 'None yet.'
 */
export function SqlHistoryList({
  entries,
  error,
  onChoose,
}: {
  entries: SqlHistoryEntry[] | undefined
  error: Error | null
  onChoose: (sql: string) => void
}) {
  return (
    <section aria-labelledby="sql-history-heading" className="flex flex-col gap-2">
      <h2 id="sql-history-heading" className="text-sm font-medium">
        Your last queries
      </h2>
      {error ? (
        <p role="alert" className="text-sm text-destructive">
          They could not be loaded: {error.message}
        </p>
      ) : entries === undefined ? (
        <p className="text-sm text-muted-foreground">Loading…</p>
      ) : (
        entries.length === 0 && <p className="text-sm text-muted-foreground">None yet.</p>
      )}
      <ol className="flex flex-col gap-1">
        {entries?.map((entry) => (
          <li key={entry.id}>
            <button
              type="button"
              onClick={() => onChoose(entry.sql)}
              className="w-full rounded-md border px-2 py-1 text-left text-xs hover:bg-muted"
            >
              <code className="line-clamp-2 break-all">{entry.sql}</code>
              <span className="block text-muted-foreground">
                <time dateTime={entry.createdAt}>{time.format(new Date(entry.createdAt))}</time>
                {' · '}
                {entry.error
                  ? 'refused or failed'
                  : `${entry.rowCount ?? 0} ${entry.rowCount === 1 ? 'row' : 'rows'}, ${entry.durationMs ?? 0} ms`}
              </span>
            </button>
          </li>
        ))}
      </ol>
    </section>
  )
}
