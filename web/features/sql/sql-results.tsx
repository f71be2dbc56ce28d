import { useMemo } from 'react'
import type { ColumnDef } from '@tanstack/react-table'
import { DataTable } from '../../components/data-table/data-table'
import type { SqlResult } from './api'

/** A result cell as text: null shown as NULL (dimmed by the caller). */
function cellText(value: SqlResult['rows'][number][number]): string {
  return value === null ? 'NULL' : String(value)
}

type SqlRow = SqlResult['rows'][number]

/** A column per result column: its name over its type; NULL dimmed and slanted. */
const resultColumns = (result: SqlResult): ColumnDef<SqlRow>[] =>
  result.columns.map((column, i) => ({
    id: String(i),
    header: () => (
      <>
        <span className="block">{column.name}</span>
        <span className="block text-xs font-normal text-muted-foreground">{column.type}</span>
      </>
    ),
    meta: { headerClassName: 'py-1 align-bottom', cellClassName: 'max-w-md break-words' },
    cell: ({ row }) => {
      const value = row.original[i] ?? null
      return value === null ? (
        <span className="text-muted-foreground italic">{cellText(value)}</span>
      ) : (
        cellText(value)
      )
    },
  }))

/** A query's result: its rows under headers with each column's type, and what the numbers say. */
export function SqlResults({ result }: { result: SqlResult }) {
  const columns = useMemo(() => resultColumns(result), [result])
  return (
    <section aria-label="Query result" className="flex flex-col gap-2">
      <p className="text-sm text-muted-foreground" role="status">
        {result.rowCount.toLocaleString()} {result.rowCount === 1 ? 'row' : 'rows'} in{' '}
        {result.durationMs.toLocaleString()} ms
        {result.truncated &&
          ` — the query had more rows; only the first ${result.rowCap.toLocaleString()} are shown`}
      </p>
      <DataTable
        columns={columns}
        data={result.rows}
        status="success"
        empty="No rows."
        getRowId={(_, index) => String(index)}
        rowClassName="align-top"
        containerClassName="max-h-[60vh] overflow-auto"
        stickyHeader
      />
    </section>
  )
}
