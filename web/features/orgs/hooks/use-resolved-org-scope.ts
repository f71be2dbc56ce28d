/** Resolution of the URL's organisation and app slugs against the signed-in user's organisations. */
import { useEffect, useMemo } from 'react'
import { useQuery } from '@tanstack/react-query'
import { useParams, useSearchParams } from 'react-router'
import { writeLastOrgHint } from '../../../lib/last-org-hint'
import type { OrgRole } from '../../../lib/org-role'
import type { OrgUrlScope } from '../../../lib/org-scope'
import { appsQuery, memberRoleQuery, orgsQuery, type OrgSummary } from '../api/orgs'

/** What the `:orgSlug` and `?app=` of the URL resolve to. */
export type ResolvedOrgScope =
  | { status: 'loading' }
  | { status: 'error'; error: Error }
  | { status: 'unknown-org'; orgSlug: string }
  | { status: 'unknown-app'; org: OrgSummary; appSlug: string }
  | { status: 'ok'; scope: OrgUrlScope; role: OrgRole }

/**
 * Reads `/dashboard/:orgSlug/…?app=<appSlug>` and resolves both slugs to ids, and the signed-in
 * person's role in the organisation (so screens ask only what it may read). A slug that is not
 * one of the user's organisations (or apps of it) is 'unknown', whether it exists for someone
 * else or not. A resolved organisation is remembered as the last-used hint for old links.
 */
export function useResolvedOrgScope(): ResolvedOrgScope {
  const orgSlug = useParams().orgSlug ?? ''
  const [searchParams] = useSearchParams()
  const appSlug = searchParams.get('app')
  const orgs = useQuery(orgsQuery())
  const org = orgs.data?.find((o) => o.slug === orgSlug)
  const apps = useQuery({ ...appsQuery(org?.id ?? ''), enabled: org !== undefined && !!appSlug })
  const role = useQuery({ ...memberRoleQuery(org?.id ?? ''), enabled: org !== undefined })

  const orgId = org?.id ?? null
  const app = appSlug ? apps.data?.find((a) => a.slug === appSlug) : undefined
  const appId = app?.id ?? null
  // One object per scope, so screens' effects and memos keyed on it do not rerun every render.
  const scope = useMemo<OrgUrlScope | null>(
    () => (orgId === null ? null : { orgId, orgSlug, appId, appSlug: appId ? appSlug : null }),
    [orgId, orgSlug, appId, appSlug],
  )

  useEffect(() => {
    if (orgId !== null) writeLastOrgHint(orgSlug)
  }, [orgId, orgSlug])

  if (orgs.isPending) return { status: 'loading' }
  if (orgs.error) return { status: 'error', error: orgs.error }
  if (!org || !scope) return { status: 'unknown-org', orgSlug }
  if (appSlug) {
    if (apps.isPending) return { status: 'loading' }
    if (apps.error) return { status: 'error', error: apps.error }
    if (!app) return { status: 'unknown-app', org, appSlug }
  }
  if (role.isPending) return { status: 'loading' }
  if (role.error) return { status: 'error', error: role.error }
  return { status: 'ok', scope, role: role.data }
}
