import { useMemo, useState } from 'react'
import { Download, Plus, Search, Trash2 } from 'lucide-react'
import { Button } from '../../../components/ui/button'
import { Input } from '../../../components/ui/input'
import type { OrgScope } from '../../../lib/org-scope'
import { exportUrl } from '../api/entities-api'
import { BASE_COLUMNS, dataColumnsOf, HIDDEN_BY_DEFAULT } from '../columns'
import { ColumnVisibility } from './column-visibility'
import { CsvImport } from './csv-import'
import { EditableCell } from './editable-cell'
import { EntitiesPager } from './entities-pager'
import { EntitiesTable } from './entities-table'
import { useEntityActions } from '../hooks/use-entity-actions'
import { useEntityList } from '../hooks/use-entity-list'

/**
 * The entities table of one organisation (and app): every behaviour of spec sections 2–5.
 * `manages` (owners and admins) adds CSV import and 'Delete Selected', the two admin-only
 * requests a member's screen must not send (the server answers them 403).
 */
export function EntitiesScreen({ scope, manages }: { scope: OrgScope; manages: boolean }) {
  const list = useEntityList(scope)
  const actions = useEntityActions(scope, () => list.setPage(1))
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set(HIDDEN_BY_DEFAULT))
  const rows = useMemo(() => list.query.data?.items ?? [], [list.query.data])
  const allColumns = useMemo(
    () => [...BASE_COLUMNS.map((c) => c.id), ...dataColumnsOf(rows)],
    [rows],
  )
  const visible = allColumns.filter((id) => !hidden.has(id))
  const selectedIds = [...list.selected]
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center gap-2">
        <div className="relative min-w-48 flex-1">
          <Search
            className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground"
            aria-hidden="true"
          />
          <Input
            type="search"
            aria-label="Search entities"
            placeholder="Search name or type…"
            value={list.search}
            onChange={(event) => list.setSearch(event.target.value)}
            className="pl-8"
          />
        </div>
        <Input
          aria-label="Filter by type"
          placeholder="Type (exact)"
          value={list.type}
          onChange={(event) => list.setType(event.target.value)}
          className="w-40"
        />
        <Button type="button" onClick={() => void actions.createFromPrompts()}>
          <Plus aria-hidden="true" />
          New
        </Button>
        <Button asChild variant="outline">
          <a href={exportUrl(scope.orgId, list.params)} download>
            <Download aria-hidden="true" />
            Export CSV
          </a>
        </Button>
        {manages && <CsvImport scope={scope} onImported={() => void actions.reload()} />}
        {manages && (
          <Button
            type="button"
            variant="destructive"
            disabled={selectedIds.length === 0}
            onClick={() => void actions.removeSelected(selectedIds)}
          >
            <Trash2 aria-hidden="true" />
            Delete Selected
          </Button>
        )}
      </div>
      {list.linkedId && (
        <p className="flex items-center gap-2 text-sm text-muted-foreground">
          Showing the linked entity only.
          <Button type="button" variant="link" className="h-auto p-0" onClick={list.showAll}>
            Show all
          </Button>
        </p>
      )}
      <ColumnVisibility columns={allColumns} hidden={hidden} onHiddenChange={setHidden} />
      {list.query.isError && (
        <p role="alert" className="text-sm text-destructive">
          {list.query.error.message}
        </p>
      )}
      <EntitiesTable
        rows={rows}
        status={list.query.status}
        columns={visible}
        sort={list.sort}
        onToggleSort={list.toggleSort}
        selected={list.selected}
        onSelectedChange={list.setSelected}
        onDelete={(id) => void actions.removeOne(id)}
        renderEditable={(row, column) => (
          <EditableCell
            label={`${column} of ${row.name}`}
            value={row[column]}
            kind={column === 'data' ? 'json' : 'text'}
            onSave={(value) => actions.saveField(row.id, { [column]: value })}
          />
        )}
      />
      <EntitiesPager
        page={list.page}
        lastPage={list.lastPage}
        onPageChange={list.setPage}
        pageSize={list.pageSize}
        onPageSizeChange={list.setPageSize}
        shown={rows.length}
        total={list.query.data?.total ?? 0}
      />
    </div>
  )
}
