import type { ReactNode } from 'react'
import { ArrowDown, ArrowUp, Trash2 } from 'lucide-react'
import { TablePlaceholderRow } from '../../components/table-placeholder-row'
import { Button } from '../../components/ui/button'
import type { Entity } from './api'
import { cellText, cellValue, isSortable } from './columns'
import type { SortTerm } from './sort-spec'

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

/** Header of one column: a sort button showing its direction and place in the sort list. */
function SortHeader({
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
  const ariaSort = term ? (term.dir === 'asc' ? 'ascending' : 'descending') : 'none'
  if (!isSortable(id)) return <th className="px-2 py-2 text-left font-medium">{id}</th>
  return (
    <th className="px-2 py-2 text-left font-medium" aria-sort={ariaSort}>
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
    </th>
  )
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
  const allSelected = rows.length > 0 && rows.every((r) => selected.has(r.id))
  const toggleRow = (id: string) => {
    const next = new Set(selected)
    if (next.has(id)) next.delete(id)
    else next.add(id)
    onSelectedChange(next)
  }
  return (
    // `relative` makes the box the containing block of the table's sr-only labels (absolutely
    // positioned), so they scroll inside it instead of widening the page on a phone.
    <div className="relative overflow-x-auto rounded-md border">
      <table className="w-full text-sm">
        <thead className="border-b bg-muted/50">
          <tr>
            <th className="w-8 px-2 py-2">
              <input
                type="checkbox"
                aria-label="Select all rows"
                checked={allSelected}
                onChange={() =>
                  onSelectedChange(allSelected ? new Set() : new Set(rows.map((r) => r.id)))
                }
              />
            </th>
            {columns.map((id) => (
              <SortHeader key={id} id={id} sort={sort} onToggle={onToggleSort} />
            ))}
            <th className="px-2 py-2">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <TablePlaceholderRow
              colSpan={columns.length + 2}
              status={status}
              rows={0}
              empty="No entities."
            />
          ) : (
            rows.map((row) => (
              <tr key={row.id} className="border-b last:border-0">
                <td className="px-2 py-1">
                  <input
                    type="checkbox"
                    aria-label={`Select ${row.name}`}
                    checked={selected.has(row.id)}
                    onChange={() => toggleRow(row.id)}
                  />
                </td>
                {columns.map((id) => (
                  <td
                    key={id}
                    className={`px-2 py-1 align-middle ${id === 'name' || id === 'data' ? 'min-w-44' : 'max-w-40'}`}
                  >
                    {id === 'name' || id === 'type' || id === 'data' ? (
                      renderEditable(row, id)
                    ) : (
                      <span className="block truncate" title={cellText(cellValue(row, id))}>
                        {cellText(cellValue(row, id))}
                      </span>
                    )}
                  </td>
                ))}
                <td className="px-2 py-1 text-right">
                  <Button
                    type="button"
                    variant="ghost"
                    size="sm"
                    aria-label={`Delete ${row.name}`}
                    onClick={() => onDelete(row.id)}
                  >
                    <Trash2 aria-hidden="true" />
                    Delete
                  </Button>
                </td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  )
}
