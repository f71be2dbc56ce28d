import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import type { ColumnDef } from '@tanstack/react-table'
import { DataTable } from '../../components/data-table/data-table'
import { LabelledSelect } from '../../components/labelled-select'
import type { OrgScope } from '../../lib/org-scope'
import { useLiveRefresh } from '../../hooks/realtime'
import { eventsQuery, type OrgEvent } from './api'

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' })

const columns: ColumnDef<OrgEvent>[] = [
  { header: 'ID', accessorKey: 'id', meta: { cellClassName: 'tabular-nums' } },
  { header: 'Kind', accessorKey: 'kind' },
  {
    header: 'Meta',
    id: 'meta',
    cell: ({ row }) => (
      <code className="text-xs break-all">{JSON.stringify(row.original.meta)}</code>
    ),
  },
  {
    header: 'Created At',
    id: 'createdAt',
    meta: { cellClassName: 'whitespace-nowrap' },
    cell: ({ row }) => (
      <time dateTime={row.original.createdAt}>
        {dateTime.format(new Date(row.original.createdAt))}
      </time>
    ),
  },
]

/** The organisation's newest 100 events (ID, Kind, Meta as JSON, Created At), with a kind filter. */
export function EventsScreen({ scope }: { scope: OrgScope }) {
  const [kind, setKind] = useState('')
  const query = useQuery(eventsQuery(scope.orgId, kind))
  // New events of the organisation show as they are recorded.
  useLiveRefresh(scope.orgId, ['public.events'], ['orgs', scope.orgId, 'events'])
  const kinds = query.data?.kinds ?? []
  return (
    <div className="flex flex-col gap-4">
      <LabelledSelect
        label="Kind"
        aria-label="Filter by kind"
        layout="inline"
        value={kind}
        onValueChange={setKind}
        placeholder="All kinds"
        options={kinds.map((k) => ({ value: k, label: k }))}
      />
      <DataTable
        columns={columns}
        data={query.data?.items}
        status={query.status}
        error={query.error}
        empty="No events yet."
        getRowId={(event) => String(event.id)}
        rowClassName="align-top"
      />
    </div>
  )
}
