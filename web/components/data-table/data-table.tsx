import { useEffect, useRef, type ComponentProps, type ReactNode } from 'react'
import {
  flexRender,
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type OnChangeFn,
  type RowSelectionState,
  type SortingState,
} from '@tanstack/react-table'
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react'
import { cn } from '../../lib/utils'
import { Button } from '../ui/button'
import { TablePlaceholderRow } from '../table-placeholder-row'

/** The list's sort, owned by the screen (the server sorts; the table only shows and asks). */
export interface DataTableSorting {
  state: SortingState
  onChange: OnChangeFn<SortingState>
}

/** Row selection: a checkbox per row and a select-all checkbox in the header. */
export interface DataTableSelection<Row> {
  state: RowSelectionState
  onChange: OnChangeFn<RowSelectionState>
  /** The row's name for its checkbox's label ('Select <label>'). */
  label: (row: Row) => string
}

/** 'Load more' paging of an infinite query: the button shows while the server has more. */
export interface DataTableLoadMore {
  hasMore: boolean
  /** True while the next page loads: the button is disabled. */
  pending: boolean
  onLoadMore: () => void
}

/** What `rowAttributes` may set on one body row. */
export interface DataTableRowAttributes {
  'aria-current'?: ComponentProps<'tr'>['aria-current']
  className?: string | false
}

export interface DataTableProps<Row> {
  /** TanStack Table columns; `enableSorting: true` on a column makes its header a sort button. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- TanStack's own ColumnDef<Row, any>: each column has its own value type
  columns: ColumnDef<Row, any>[]
  /** The rows; undefined while the first load runs or after it failed. */
  data: readonly Row[] | undefined
  /** The load's TanStack Query status (decision 0102), not a loading flag. */
  status: 'pending' | 'error' | 'success'
  /** The load's failure: shown as an alert above the table (its `message` is the problem detail). */
  error?: Error | null
  /** What an empty result says, e.g. 'No events yet.' */
  empty: string
  /** What the table says while loading, when not 'Loading…' (e.g. 'Loading API keys…'). */
  loading?: string
  /**
   * Where loading and empty are said: a row of the table ('row', the default), or a sentence in
   * place of the table ('sentence': a panel whose table only shows once it has rows).
   */
  placeholder?: 'row' | 'sentence'
  /** Words before the failure's detail in the alert, e.g. 'The tokens could not be loaded: '. */
  failurePrefix?: string
  /** The row's stable key (its id; the index for rows without one, such as query results). */
  getRowId: (row: Row, index: number) => string
  /** The table's accessible name when the page has several tables. */
  label?: string
  sorting?: DataTableSorting
  selection?: DataTableSelection<Row>
  loadMore?: DataTableLoadMore
  /** Extra classes of a body row (e.g. `align-top`). */
  rowClassName?: string
  /**
   * A row's own marks, e.g. `aria-current` and a highlight for the row the address names;
   * its `className` is added after `rowClassName`.
   */
  rowAttributes?: (row: Row) => DataTableRowAttributes
  /** Classes of the scrolling box around the table (e.g. a height cap). */
  containerClassName?: string
  /** Keeps the header in view while the rows scroll inside `containerClassName`'s height cap. */
  stickyHeader?: boolean
  /** Shown under the table, before the paging controls (a pager, a count). */
  footer?: ReactNode
}

const EMPTY: never[] = []

/**
 * Lexdesk's one table: header, rows and the four states of decision 0102 — 'Loading…' (busy)
 * while the first load runs, the failure as an alert with the server's detail above the table,
 * the `empty` sentence once it loaded none, and the rows — with optional header sort buttons
 * (`aria-sort` on the header), row selection with a select-all checkbox, and 'Load more' paging.
 * Sorting and paging are the server's: the table reports what was asked and shows rows as given.
 */
export function DataTable<Row>({
  columns,
  data,
  status,
  error,
  empty,
  loading,
  failurePrefix = '',
  placeholder = 'row',
  getRowId,
  label,
  sorting,
  selection,
  loadMore,
  rowClassName,
  rowAttributes,
  containerClassName,
  stickyHeader = false,
  footer,
}: DataTableProps<Row>) {
  // TanStack Table's functions are not memoizable; this component passes none to memoized ones.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable<Row>({
    data: (data ?? EMPTY) as Row[],
    columns,
    getRowId: (row, index) => getRowId(row, index),
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
    manualPagination: true,
    enableSorting: Boolean(sorting),
    enableSortingRemoval: false,
    enableRowSelection: Boolean(selection),
    state: {
      ...(sorting ? { sorting: sorting.state } : {}),
      ...(selection ? { rowSelection: selection.state } : {}),
    },
    onSortingChange: sorting?.onChange,
    onRowSelectionChange: selection?.onChange,
  })
  const rows = table.getRowModel().rows
  const colSpan = table.getVisibleLeafColumns().length + (selection ? 1 : 0)

  return (
    <div className="flex flex-col gap-2">
      {status === 'error' && error && (
        <p role="alert" className="text-sm text-destructive">
          {failurePrefix}
          {error.message}
        </p>
      )}
      {placeholder === 'sentence' && rows.length === 0 ? (
        status !== 'error' && (
          <p aria-busy={status === 'pending'} className="text-sm text-muted-foreground">
            {status === 'pending' ? (loading ?? 'Loading…') : empty}
          </p>
        )
      ) : (
        <div className={cn('relative overflow-x-auto rounded-md border', containerClassName)}>
          <table className="w-full text-sm" aria-label={label}>
            <thead
              className={cn(
                'border-b text-left',
                stickyHeader ? 'sticky top-0 bg-muted' : 'bg-muted/50',
              )}
            >
              {table.getHeaderGroups().map((group) => (
                <tr key={group.id}>
                  {selection && (
                    <th className="w-8 px-2 py-2">
                      <SelectCheckbox
                        label="Select all rows"
                        checked={table.getIsAllRowsSelected()}
                        indeterminate={table.getIsSomeRowsSelected()}
                        disabled={rows.length === 0}
                        onChange={table.getToggleAllRowsSelectedHandler()}
                      />
                    </th>
                  )}
                  {group.headers.map((header) => {
                    const sortable = header.column.getCanSort()
                    const sorted = header.column.getIsSorted()
                    const title = header.isPlaceholder
                      ? null
                      : flexRender(header.column.columnDef.header, header.getContext())
                    return (
                      <th
                        key={header.id}
                        scope="col"
                        aria-sort={
                          !sortable
                            ? header.column.columnDef.meta?.ariaSort
                            : sorted === 'asc'
                              ? 'ascending'
                              : sorted === 'desc'
                                ? 'descending'
                                : 'none'
                        }
                        className={cn(
                          'px-2 py-2 font-medium',
                          header.column.columnDef.meta?.headerClassName,
                        )}
                      >
                        {sortable ? (
                          <button
                            type="button"
                            onClick={header.column.getToggleSortingHandler()}
                            className="inline-flex items-center gap-1 rounded-sm hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                          >
                            {title}
                            {sorted === 'asc' ? (
                              <ArrowUp className="size-3" aria-hidden="true" />
                            ) : sorted === 'desc' ? (
                              <ArrowDown className="size-3" aria-hidden="true" />
                            ) : (
                              <ArrowUpDown className="size-3 opacity-50" aria-hidden="true" />
                            )}
                          </button>
                        ) : (
                          title
                        )}
                      </th>
                    )
                  })}
                </tr>
              ))}
            </thead>
            <tbody>
              <TablePlaceholderRow
                colSpan={colSpan}
                status={status}
                rows={rows.length}
                empty={empty}
                loading={loading}
              />
              {rows.map((row) => {
                const own = rowAttributes?.(row.original)
                return (
                  <tr
                    key={row.id}
                    aria-selected={selection ? row.getIsSelected() : undefined}
                    aria-current={own?.['aria-current']}
                    className={cn('border-b last:border-0', rowClassName, own?.className)}
                  >
                    {selection && (
                      <td className="px-2 py-1">
                        <SelectCheckbox
                          label={`Select ${selection.label(row.original)}`}
                          checked={row.getIsSelected()}
                          onChange={row.getToggleSelectedHandler()}
                        />
                      </td>
                    )}
                    {row.getVisibleCells().map((cell) => {
                      const meta = cell.column.columnDef.meta
                      const Cell = meta?.rowHeader ? 'th' : 'td'
                      return (
                        <Cell
                          key={cell.id}
                          scope={meta?.rowHeader ? 'row' : undefined}
                          className={cn(
                            'px-2 py-1',
                            meta?.rowHeader && 'text-left font-normal',
                            meta?.cellClassName,
                          )}
                        >
                          {flexRender(cell.column.columnDef.cell, cell.getContext())}
                        </Cell>
                      )
                    })}
                  </tr>
                )
              })}
            </tbody>
          </table>
        </div>
      )}
      {footer}
      {loadMore?.hasMore && (
        <Button
          type="button"
          variant="outline"
          className="self-center"
          disabled={loadMore.pending}
          onClick={loadMore.onLoadMore}
        >
          Load more
        </Button>
      )}
    </div>
  )
}

interface SelectCheckboxProps {
  label: string
  checked: boolean
  indeterminate?: boolean
  disabled?: boolean
  onChange: (event: unknown) => void
}

/** A selection checkbox; `indeterminate` is a DOM property, not an attribute, hence the effect. */
function SelectCheckbox({
  label,
  checked,
  indeterminate = false,
  disabled,
  onChange,
}: SelectCheckboxProps) {
  const ref = useRef<HTMLInputElement>(null)
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = indeterminate && !checked
  }, [indeterminate, checked])
  return (
    <input
      ref={ref}
      type="checkbox"
      aria-label={label}
      checked={checked}
      disabled={disabled}
      onChange={onChange}
      className="size-4 accent-primary"
    />
  )
}
