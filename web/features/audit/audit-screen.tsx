import { useId, useState } from 'react'
import { Link } from 'react-router'
import { useInfiniteQuery } from '@tanstack/react-query'
import { Download } from 'lucide-react'
import { TablePlaceholderRow } from '../../components/table-placeholder-row'
import { Button } from '../../components/ui/button'
import { Input } from '../../components/ui/input'
import { ApiError } from '../../lib/api'
import { managesOrganization, useOrgRole } from '../../lib/org-role'
import type { OrgUrlScope } from '../../lib/org-scope'
import { auditExportUrl, auditPagesQuery, type AuditFilters } from './api'
import { auditTargetPath } from './audit-target-path'

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' })

const NO_FILTERS: AuditFilters = { actorId: '', action: '', from: '', to: '' }

const selectClass = 'h-9 rounded-md border border-input bg-background px-2 text-sm'

/**
 * The organisation's audit log for owners and admins: newest first, filtered by actor, action
 * and days, a page at a time (Load more), the filtered rows as a CSV download, and a link to each
 * target that still exists. Members are told so (nothing is asked of the server for them).
 */
export function AuditScreen({ scope }: { scope: OrgUrlScope }) {
  const ids = useId()
  const [filters, setFilters] = useState<AuditFilters>(NO_FILTERS)
  const manages = managesOrganization(useOrgRole())
  const query = useInfiniteQuery({ ...auditPagesQuery(scope.orgId, filters), enabled: manages })
  const first = query.data?.pages[0]
  const entries = query.data?.pages.flatMap((page) => page.items) ?? []
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
        <label className="flex flex-col gap-1 text-sm">
          Actor
          <select
            value={filters.actorId}
            onChange={(event) => set('actorId')(event.target.value)}
            className={selectClass}
          >
            <option value="">Everyone</option>
            {first?.actors.map((actor) => (
              <option key={actor.id} value={actor.id}>
                {actor.name}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm">
          Action
          <select
            value={filters.action}
            onChange={(event) => set('action')(event.target.value)}
            className={selectClass}
          >
            <option value="">All actions</option>
            {(actions.includes(filters.action) || !filters.action
              ? actions
              : [...actions, filters.action]
            ).map((action) => (
              <option key={action} value={action}>
                {action}
              </option>
            ))}
          </select>
        </label>
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
      {query.isError && (
        <p role="alert" className="text-sm text-destructive">
          {query.error.message}
        </p>
      )}
      <div className="relative overflow-x-auto rounded-md border">
        <table className="w-full text-sm">
          <thead className="border-b bg-muted/50 text-left">
            <tr>
              <th className="px-2 py-2 font-medium">When</th>
              <th className="px-2 py-2 font-medium">Actor</th>
              <th className="px-2 py-2 font-medium">Action</th>
              <th className="px-2 py-2 font-medium">Target</th>
              <th className="px-2 py-2 font-medium">Details</th>
            </tr>
          </thead>
          <tbody>
            <TablePlaceholderRow
              colSpan={5}
              status={query.status}
              rows={entries.length}
              empty="No audit entries match."
            />
            {entries.map((entry) => {
              const path = auditTargetPath(scope, entry)
              const target = `${entry.targetType}${entry.targetId ? ` ${entry.targetId}` : ''}`
              return (
                <tr key={entry.id} className="border-b align-top last:border-0">
                  <td className="px-2 py-1 whitespace-nowrap">
                    <time dateTime={entry.createdAt}>
                      {dateTime.format(new Date(entry.createdAt))}
                    </time>
                  </td>
                  <td className="px-2 py-1">
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
                  </td>
                  <td className="px-2 py-1">{entry.action}</td>
                  <td className="px-2 py-1 break-all">
                    {path ? <Link to={path}>{target}</Link> : target}
                  </td>
                  <td className="px-2 py-1">
                    <code className="text-xs break-all">{JSON.stringify(entry.meta)}</code>
                  </td>
                </tr>
              )
            })}
          </tbody>
        </table>
      </div>
      {query.hasNextPage && (
        <Button
          type="button"
          variant="outline"
          className="self-center"
          disabled={query.isFetchingNextPage}
          onClick={() => void query.fetchNextPage()}
        >
          Load more
        </Button>
      )}
    </div>
  )
}
