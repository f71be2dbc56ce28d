import { useId, useMemo, useState } from 'react'
import { Link } from 'react-router'
import { useInfiniteQuery } from '@tanstack/react-query'
import { Download } from 'lucide-react'
import type { ColumnDef } from '@tanstack/react-table'
import { DataTable } from '../../components/data-table/data-table'
import { LabelledSelect } from '../../components/labelled-select'
import { Button } from '../../components/ui/button'
import { Input } from '../../components/ui/input'
import { ApiError } from '../../lib/api'
import { managesOrganisation, useOrgRole } from '../../lib/org-role'
import type { OrgUrlScope } from '../../lib/org-scope'
import {
  auditExportUrl,
  auditPagesQuery,
  NO_AUDIT_FILTERS,
  type AuditEntry,
  type AuditFilters,
} from './api'
import { auditTargetPath } from './audit-target-path'

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' })

/** The log's columns; the target links to what it names in `scope` while that still exists. */
const auditColumns = (scope: OrgUrlScope): ColumnDef<AuditEntry>[] => [
  {
    header: 'When',
    id: 'createdAt',
    meta: { cellClassName: 'whitespace-nowrap' },
    cell: ({ row }) => (
      <time dateTime={row.original.createdAt}>
        {dateTime.format(new Date(row.original.createdAt))}
      </time>
    ),
  },
  { header: 'Actor', id: 'actor', cell: ({ row }) => <AuditActor entry={row.original} /> },
  { header: 'Action', accessorKey: 'action' },
  {
    header: 'Target',
    id: 'target',
    meta: { cellClassName: 'break-all' },
    cell: ({ row }) => {
      const entry = row.original
      const path = auditTargetPath(scope, entry)
      const target = `${entry.targetType}${entry.targetId ? ` ${entry.targetId}` : ''}`
      return path ? <Link to={path}>{target}</Link> : target
    },
  },
  {
    header: 'Details',
    id: 'meta',
    cell: ({ row }) => (
      <code className="text-xs break-all">{JSON.stringify(row.original.meta)}</code>
    ),
  },
]

/** Who acted: 'System', a person's name, or a credential's name with its kind in brackets. */
function AuditActor({ entry }: { entry: AuditEntry }) {
  return (
    <>
      {entry.actorType === 'system'
        ? 'System'
        : entry.actorType === 'imported' && !entry.actorName
          ? 'Imported'
          : (entry.actorName ?? entry.actorId ?? entry.actorType)}
      {entry.actorType !== 'user' &&
        entry.actorType !== 'system' &&
        (entry.actorType !== 'imported' || entry.actorName) && (
          <span className="text-muted-foreground"> ({entry.actorType})</span>
        )}
    </>
  )
}

/**
 * The organisation's audit log for owners and admins: newest first, filtered by actor, action
 * and days, a page at a time (Load more), the filtered rows as a CSV download, and a link to each
 * target that still exists. Members are told so (nothing is asked of the server for them).
 */
export function AuditScreen({ scope }: { scope: OrgUrlScope }) {
  const ids = useId()
  const [filters, setFilters] = useState<AuditFilters>(NO_AUDIT_FILTERS)
  const manages = managesOrganisation(useOrgRole())
  const query = useInfiniteQuery({ ...auditPagesQuery(scope.orgId, filters), enabled: manages })
  const first = query.data?.pages[0]
  const entries = query.data?.pages.flatMap((page) => page.items) ?? []
  const columns = useMemo(() => auditColumns(scope), [scope])
  const set = (key: keyof AuditFilters) => (value: string) =>
    setFilters((current) => ({ ...current, [key]: value }))

  if (!manages || (query.error instanceof ApiError && query.error.code === 'forbidden'))
    return (
      <p role="alert" className="text-sm text-muted-foreground">
        Only owners and admins can read the audit log.
      </p>
    )

  const actions = first?.actions ?? []
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end gap-2">
        <LabelledSelect
          label="Actor"
          value={filters.actorId}
          onValueChange={set('actorId')}
          placeholder="Everyone"
          options={first?.actors.map((actor) => ({ value: actor.id, label: actor.name })) ?? []}
        />
        <LabelledSelect
          label="Action"
          value={filters.action}
          onValueChange={set('action')}
          placeholder="All actions"
          options={actions.map((action) => ({ value: action, label: action }))}
        />
        <label htmlFor={`${ids}-from`} className="flex flex-col gap-1 text-sm">
          From
          <Input
            id={`${ids}-from`}
            type="date"
            value={filters.from}
            onChange={(event) => set('from')(event.target.value)}
            className="w-40"
          />
        </label>
        <label htmlFor={`${ids}-to`} className="flex flex-col gap-1 text-sm">
          To
          <Input
            id={`${ids}-to`}
            type="date"
            value={filters.to}
            onChange={(event) => set('to')(event.target.value)}
            className="w-40"
          />
        </label>
        <Button asChild variant="outline">
          <a href={auditExportUrl(scope.orgId, filters)} download>
            <Download aria-hidden="true" />
            Export CSV
          </a>
        </Button>
      </div>
      <DataTable
        columns={columns}
        data={entries}
        status={query.status}
        error={query.error}
        empty="No audit entries match."
        getRowId={(entry) => entry.id}
        rowClassName="align-top"
        loadMore={{
          hasMore: query.hasNextPage,
          pending: query.isFetchingNextPage,
          onLoadMore: () => void query.fetchNextPage(),
        }}
      />
    </div>
  )
}
