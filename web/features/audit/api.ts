/** Audit log data access: keyset pages of the organisation's audit rows, and their CSV export. */
import { infiniteQueryOptions } from '@tanstack/react-query'
import { api, unwrap } from '../../lib/api'
import type { components } from '../../lib/api-schema'

export type AuditEntry = components['schemas']['AuditEntry']

/** The viewer's filters: empty strings mean "any"; `from`/`to` are days (YYYY-MM-DD), inclusive. */
export interface AuditFilters {
  actorId: string
  action: string
  from: string
  to: string
}

/** The log as it opens: everyone, every action, every day. */
export const NO_AUDIT_FILTERS: AuditFilters = { actorId: '', action: '', from: '', to: '' }

/** Rows per page of the viewer. */
export const AUDIT_PAGE_SIZE = 50

/**
 * The API query of `filters`: a day range becomes instants in the browser's time zone, from the
 * start of `from` to the start of the day after `to` (the API's `to` is exclusive).
 */
export function auditQuery(filters: AuditFilters) {
  const startOf = (day: string, plusDays = 0) => {
    const date = new Date(`${day}T00:00:00`)
    date.setDate(date.getDate() + plusDays)
    return date.toISOString()
  }
  return {
    actorId: filters.actorId || undefined,
    action: filters.action || undefined,
    from: filters.from ? startOf(filters.from) : undefined,
    to: filters.to ? startOf(filters.to, 1) : undefined,
  }
}

/** One page of the org's audit log under `filters` from `cursor`, with the filter choices. */
function fetchAuditPage(
  orgId: string,
  filters: AuditFilters,
  cursor: string | undefined,
  signal: AbortSignal,
) {
  return api
    .GET('/api/v1/orgs/{orgId}/audit', {
      params: {
        path: { orgId },
        query: { ...auditQuery(filters), limit: AUDIT_PAGE_SIZE, cursor },
      },
      signal,
    })
    .then(unwrap)
}

/** A page of the audit log as the API answers it. */
export type AuditPage = Awaited<ReturnType<typeof fetchAuditPage>>

/** Pages of the org's audit log under `filters`, newest first (keyset: each page's nextCursor). */
export const auditPagesQuery = (orgId: string, filters: AuditFilters) =>
  infiniteQueryOptions({
    queryKey: ['orgs', orgId, 'audit', filters] as const,
    queryFn: ({ pageParam, signal }) => fetchAuditPage(orgId, filters, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page: AuditPage) => page.nextCursor ?? undefined,
  })

/** Same-origin URL of the CSV export of the rows under `filters` (session cookie). */
export function auditExportUrl(orgId: string, filters: AuditFilters): string {
  const query = new URLSearchParams()
  for (const [key, value] of Object.entries(auditQuery(filters)))
    if (value !== undefined) query.set(key, value)
  const suffix = query.size > 0 ? `?${query.toString()}` : ''
  return `/api/v1/orgs/${encodeURIComponent(orgId)}/audit/export${suffix}`
}
