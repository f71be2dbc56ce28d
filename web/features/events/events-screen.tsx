import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { TablePlaceholderRow } from '../../components/table-placeholder-row'
import type { OrgScope } from '../../lib/org-scope'
import { useLiveRefresh } from '../../lib/realtime'
import { eventsQuery } from './api'

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' })

/** The organisation's newest 100 events (ID, Kind, Meta as JSON, Created At), with a kind filter. */
export function EventsScreen({ scope }: { scope: OrgScope }) {
  const [kind, setKind] = useState('')
  const query = useQuery(eventsQuery(scope.orgId, kind))
  // New events of the organisation show as they are recorded.
  useLiveRefresh(scope.orgId, ['public.events'], ['orgs', scope.orgId, 'events'])
  const kinds = query.data?.kinds ?? []
  return (
    <div className="flex flex-col gap-4">
      <label className="flex items-center gap-2 text-sm">
        Kind
        <select
          aria-label="Filter by kind"
          value={kind}
          onChange={(event) => setKind(event.target.value)}
          className="h-9 rounded-md border border-input bg-background px-2"
        >
          <option value="">All kinds</option>
          {(kinds.includes(kind) || !kind ? kinds : [...kinds, kind]).map((k) => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </select>
      </label>
      {query.isError && (
        <p role="alert" className="text-sm text-destructive">
          {query.error.message}
        </p>
      )}
      <div className="relative overflow-x-auto rounded-md border">
        <table className="w-full text-sm">
          <thead className="border-b bg-muted/50 text-left">
            <tr>
              <th className="px-2 py-2 font-medium">ID</th>
              <th className="px-2 py-2 font-medium">Kind</th>
              <th className="px-2 py-2 font-medium">Meta</th>
              <th className="px-2 py-2 font-medium">Created At</th>
            </tr>
          </thead>
          <tbody>
            <TablePlaceholderRow
              colSpan={4}
              status={query.status}
              rows={query.data?.items.length ?? 0}
              empty="No events yet."
            />
            {query.data?.items.map((event) => (
              <tr key={event.id} className="border-b align-top last:border-0">
                <td className="px-2 py-1 tabular-nums">{event.id}</td>
                <td className="px-2 py-1">{event.kind}</td>
                <td className="px-2 py-1">
                  <code className="text-xs break-all">{JSON.stringify(event.meta)}</code>
                </td>
                <td className="px-2 py-1 whitespace-nowrap">
                  <time dateTime={event.createdAt}>
                    {dateTime.format(new Date(event.createdAt))}
                  </time>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  )
}
