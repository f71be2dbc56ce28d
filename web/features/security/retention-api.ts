/**
 * Retention of an organisation (issue 45, decision 0148): its policies (query keyed
 * `['orgs', orgId, 'retention-policies']`), setting and clearing one, starting a run now, and the
 * address of the deletion report's CSV. Every call rejects with an ApiError carrying the server's
 * problem.
 */
import { queryOptions } from '@tanstack/react-query'
import { api, unwrap } from '../../lib/api'
import type { components } from '../../lib/api-schema'

export type RetentionPolicy = components['schemas']['RetentionPolicy']
export type RetentionKind = RetentionPolicy['kind']

/** What a policy says: a kind, for the organisation (no app) or one app, days or forever (null). */
export interface RetentionPolicyInput {
  kind: RetentionKind
  appId?: string | null
  keepDays: number | null
}

/** The organisation's policies (admins and owners; others get a 403). */
export const retentionPoliciesQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'retention-policies'] as const,
    queryFn: ({ signal }) =>
      api
        .GET('/api/v1/orgs/{orgId}/retention-policies', { params: { path: { orgId } }, signal })
        .then(unwrap),
  })

/** Sets (or replaces) the policy of one kind for the organisation or an app. */
export const setRetentionPolicy = (
  orgId: string,
  body: RetentionPolicyInput,
): Promise<RetentionPolicy> =>
  api
    .PUT('/api/v1/orgs/{orgId}/retention-policies', { params: { path: { orgId } }, body })
    .then(unwrap)

/** Clears policy `policyId` (its items fall back to the organisation's default, or are kept). */
export const clearRetentionPolicy = (orgId: string, policyId: string): Promise<void> =>
  api
    .DELETE('/api/v1/orgs/{orgId}/retention-policies/{policyId}', {
      params: { path: { orgId, policyId } },
    })
    .then(unwrap)
    .then(() => undefined)

/** Starts a retention run now (a job; answers it, or the run already queued or running). */
export const runRetentionNow = (orgId: string) =>
  api.POST('/api/v1/orgs/{orgId}/retention-runs', { params: { path: { orgId } } }).then(unwrap)

/**
 * The deletion report of `from`..`to` (days, `YYYY-MM-DD`, the end day included; either may be
 * empty) as a CSV attachment the browser downloads.
 */
export function retentionReportUrl(orgId: string, from: string, to: string): string {
  const query = new URLSearchParams({ format: 'csv' })
  if (from) query.set('from', new Date(`${from}T00:00:00`).toISOString())
  if (to) {
    const end = new Date(`${to}T00:00:00`)
    end.setDate(end.getDate() + 1)
    query.set('to', end.toISOString())
  }
  return `/api/v1/orgs/${encodeURIComponent(orgId)}/retention-report?${query.toString()}`
}
