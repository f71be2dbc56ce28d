import { createContext, useContext, type ReactNode } from 'react'
import type {
  CellContext,
  ColumnDef,
  HeaderContext,
  RowSelectionState,
  Updater,
} from '@tanstack/react-table'
import { ArrowDown, ArrowUp, Trash2 } from 'lucide-react'
import { DataTable } from '../../../components/data-table/data-table'
import { Button } from '../../../components/ui/button'
import type { Entity } from '../api/entities-api'
import { cellText, cellValue, isSortable } from '../columns'
import type { SortTerm } from '../sort-spec'

interface EntitiesTableProps {
  rows: readonly Entity[]
  /**
   * The list's load: an empty table says 'Loading…' while it runs, 'No entities.' once it
   * succeeded, nothing when it failed (the screen says why above the table).
   */
  status: 'pending' | 'error' | 'success'
  /** Visible column ids, in order. */
  columns: readonly string[]
  sort: readonly SortTerm[]
  onToggleSort: (key: string) => void
  selected: ReadonlySet<string>
  onSelectedChange: (selected: ReadonlySet<string>) => void
  onDelete: (id: string) => void
  /** The in-place editor of an editable cell. */
  renderEditable: (row: Entity, column: 'name' | 'type' | 'data') => ReactNode
}

/**
 * A column's header: a sort button showing its direction and place in the sort list. The sort
 * is the spec's (several columns, newest term first: sort-spec.ts), not TanStack's one-column
 * toggle, so the header asks `onToggle` and tells the table its `aria-sort` (meta.ariaSort).
 */
function SortButton({
  id,
  sort,
  onToggle,
}: {
  id: string
  sort: readonly SortTerm[]
  onToggle: (key: string) => void
}) {
  const index = sort.findIndex((t) => t.key === id)
  const term = sort[index]
  return (
    <button
      type="button"
      aria-label={`Sort by ${id}`}
      className="inline-flex items-center gap-1 hover:underline"
      onClick={() => onToggle(id)}
    >
      {id}
      {term?.dir === 'asc' && <ArrowUp className="size-3" aria-hidden="true" />}
      {term?.dir === 'desc' && <ArrowDown className="size-3" aria-hidden="true" />}
      {term && sort.length > 1 && (
        <span className="text-xs text-muted-foreground">{index + 1}</span>
      )}
    </button>
  )
}

const EDITABLE = new Set(['name', 'type', 'data'])

/** What the header and cell components read (module-level components keep their identity). */
const TableActions = createContext<
  Pick<EntitiesTableProps, 'sort' | 'onToggleSort' | 'onDelete' | 'renderEditable'>
>({ sort: [], onToggleSort: () => {}, onDelete: () => {}, renderEditable: () => null })

function EntityHeader({ column }: HeaderContext<Entity, unknown>) {
  const { sort, onToggleSort } = useContext(TableActions)
  return isSortable(column.id) ? (
    <SortButton id={column.id} sort={sort} onToggle={onToggleSort} />
  ) : (
    column.id
  )
}

function EntityCell({ row, column }: CellContext<Entity, unknown>) {
  const { renderEditable } = useContext(TableActions)
  const id = column.id
  if (EDITABLE.has(id)) return renderEditable(row.original, id as 'name' | 'type' | 'data')
  const text = cellText(cellValue(row.original, id))
  return (
    <span className="block truncate" title={text}>
      {text}
    </span>
  )
}

function DeleteCell({ row }: CellContext<Entity, unknown>) {
  const { onDelete } = useContext(TableActions)
  return (
    <Button
      type="button"
      variant="ghost"
      size="sm"
      aria-label={`Delete ${row.original.name}`}
      onClick={() => onDelete(row.original.id)}
    >
      <Trash2 aria-hidden="true" />
      Delete
    </Button>
  )
}

const ActionsHeader = () => <span className="sr-only">Actions</span>

/** The aria-sort of column `id`'s header under `sort`. */
function ariaSortOf(id: string, sort: readonly SortTerm[]) {
  if (!isSortable(id)) return undefined
  const term = sort.find((t) => t.key === id)
  return term ? (term.dir === 'asc' ? 'ascending' : 'descending') : 'none'
}

/** The entities table: selectable rows, sortable headers, inline-editable name, type and data. */
export function EntitiesTable({
  rows,
  status,
  columns,
  sort,
  onToggleSort,
  selected,
  onSelectedChange,
  onDelete,
  renderEditable,
}: EntitiesTableProps) {
  const tableColumns: ColumnDef<Entity>[] = [
    ...columns.map((id): ColumnDef<Entity> => ({
      id,
      header: EntityHeader,
      cell: EntityCell,
      meta: {
        headerClassName: 'text-left',
        cellClassName: `align-middle ${id === 'name' || id === 'data' ? 'min-w-44' : 'max-w-40'}`,
        ariaSort: ariaSortOf(id, sort),
      },
    })),
    {
      id: 'actions',
      header: ActionsHeader,
      cell: DeleteCell,
      meta: { cellClassName: 'text-right' },
    },
  ]
  const selection: RowSelectionState = Object.fromEntries([...selected].map((id) => [id, true]))
  const select = (updater: Updater<RowSelectionState>) => {
    const next = typeof updater === 'function' ? updater(selection) : updater
    onSelectedChange(new Set(Object.keys(next).filter((id) => next[id])))
  }
  return (
    <TableActions.Provider value={{ sort, onToggleSort, onDelete, renderEditable }}>
      <DataTable
        columns={tableColumns}
        data={rows}
        status={status}
        empty="No entities."
        getRowId={(row) => row.id}
        selection={{ state: selection, onChange: select, label: (row) => row.name }}
      />
    </TableActions.Provider>
  )
}
