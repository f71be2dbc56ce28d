import type { SqlResult } from './api'

/** A result cell as text: null shown as NULL (dimmed by the caller). */
function cellText(value: SqlResult['rows'][number][number]): string {
  return value === null ? 'NULL' : String(value)
}

/** A query's result: its rows under headers with each column's type, and what the numbers say. */
export function SqlResults({ result }: { result: SqlResult }) {
  return (
    <section aria-label="Query result" className="flex flex-col gap-2">
      <p className="text-sm text-muted-foreground" role="status">
        {result.rowCount.toLocaleString()} {result.rowCount === 1 ? 'row' : 'rows'} in{' '}
        {result.durationMs.toLocaleString()} ms
        {result.truncated &&
          ` — the query had more rows; only the first ${result.rowCap.toLocaleString()} are shown`}
      </p>
      <div className="relative max-h-[60vh] overflow-auto rounded-md border">
        <table className="w-full text-sm">
          <thead className="sticky top-0 border-b bg-muted text-left">
            <tr>
              {result.columns.map((column, i) => (
                <th key={i} scope="col" className="px-2 py-1 align-bottom font-medium">
                  <span className="block">{column.name}</span>
                  <span className="block text-xs font-normal text-muted-foreground">
                    {column.type}
                  </span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {result.rows.length === 0 && (
              <tr>
                <td
                  colSpan={Math.max(result.columns.length, 1)}
                  className="px-2 py-6 text-center text-muted-foreground"
                >
                  No rows.
                </td>
              </tr>
            )}
            {result.rows.map((row, r) => (
              <tr key={r} className="border-b align-top last:border-0">
                {row.map((value, c) => (
                  <td
                    key={c}
                    className={`max-w-md px-2 py-1 break-words ${value === null ? 'text-muted-foreground italic' : ''}`}
                  >
                    {cellText(value)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  )
}
