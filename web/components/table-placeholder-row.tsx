interface TablePlaceholderRowProps {
  /** The table's column count: the row spans them all. */
  colSpan: number
  /** The table's load, as TanStack Query names it. */
  status: 'pending' | 'error' | 'success'
  /** How many rows the table shows. */
  rows: number
  /** What an empty result says, e.g. 'No jobs running.' */
  empty: string
  /** What the row says while the load runs; 'Loading…' unless the list names itself. */
  loading?: string
}

/**
 * The one row of a table with no rows to show: 'Loading…' while its load runs (an empty table
 * would read as 'none'), `empty` once it loaded none, and nothing when it has rows or its load
 * failed (the screen says why above the table).
 */
export function TablePlaceholderRow({
  colSpan,
  status,
  rows,
  empty,
  loading = 'Loading…',
}: TablePlaceholderRowProps) {
  if (status === 'error' || rows > 0) return null
  return (
    <tr>
      <td
        colSpan={colSpan}
        aria-busy={status === 'pending'}
        className="px-2 py-8 text-center text-muted-foreground"
      >
        {status === 'pending' ? loading : empty}
      </td>
    </tr>
  )
}
