import '@tanstack/react-table'

declare module '@tanstack/react-table' {
  /** Lexdesk's per-column extras read by `DataTable`. */
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- TanStack's declaration merges on these parameters
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Extra classes of the column's body cells (e.g. 'whitespace-nowrap'). */
    cellClassName?: string
    /** Extra classes of the column's header cell. */
    headerClassName?: string
    /** The column names its row: its body cells are `<th scope="row">` (e.g. a figure's date). */
    rowHeader?: boolean
    /**
     * The header's `aria-sort` when the column sorts itself (its header renders its own sort
     * button, e.g. the entities table's multi-column sort) instead of through `sorting`.
     */
    ariaSort?: 'ascending' | 'descending' | 'none'
  }
}
