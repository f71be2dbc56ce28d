/** TanStack Query factories for the organisations the user belongs to and the apps of one organisation. */
import { queryOptions } from '@tanstack/react-query'
import { api, ApiError, unwrap } from '../../../lib/api'
import { authClient, authErrorMessage } from '../../../lib/auth-client'
import type { OrgRole } from '../../../lib/org-role'

/** An organisation as the web app uses it. */
export interface OrgSummary {
  id: string
  name: string
  slug: string
}

/** An app inside an organisation. */
export interface AppSummary {
  id: string
  slug: string
}

/** The signed-in user's organisations, sorted by name; throws ApiError. */
async function listOrgs(): Promise<OrgSummary[]> {
  const { data, error } = await authClient.organization.list()
  if (error) throw new ApiError(error.status, { detail: authErrorMessage(error) }, error.statusText)
  return (data ?? [])
    .map(({ id, name, slug }) => ({ id, name, slug }))
    .sort((a, b) => a.name.localeCompare(b.name))
}

/** The signed-in user's organisations, sorted by name. Key `['orgs']` (user-scoped, cleared on sign-out). */
export const orgsQuery = () => queryOptions({ queryKey: ['orgs'] as const, queryFn: listOrgs })

/**
 * The organisations the signed-in user owns, sorted by name: where an archive may be imported
 * (issue 27). better-auth's list carries no role, so each organisation's role is asked for (a
 * user belongs to a few). Key `['orgs', 'owned']`, refreshed with `['orgs']`.
 */
export const ownedOrgsQuery = () =>
  queryOptions({
    queryKey: ['orgs', 'owned'] as const,
    queryFn: async (): Promise<OrgSummary[]> => {
      const orgs = await listOrgs()
      const roles = await Promise.all(
        orgs.map(async (org) => {
          const { data } = await authClient.organization.getActiveMemberRole({
            query: { organizationId: org.id },
          })
          return data?.role
        }),
      )
      return orgs.filter((_org, i) => roles[i]?.split(',').includes('owner'))
    },
  })

/**
 * The signed-in person's role in organisation `orgId` (better-auth's active-member role for it;
 * the highest when it holds several). Key `['orgs', orgId, 'role']`; throws ApiError.
 */
export const memberRoleQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'role'] as const,
    queryFn: async (): Promise<OrgRole> => {
      const { data, error } = await authClient.organization.getActiveMemberRole({
        query: { organizationId: orgId },
      })
      if (error) {
        throw new ApiError(error.status, { detail: authErrorMessage(error) }, error.statusText)
      }
      const roles = (data?.role ?? '').split(',')
      return roles.includes('owner') ? 'owner' : roles.includes('admin') ? 'admin' : 'member'
    },
  })

/** Apps of organisation `orgId`, ordered by slug (server order). Key `['orgs', orgId, 'apps']`. */
export const appsQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'apps'] as const,
    queryFn: ({ signal }): Promise<AppSummary[]> =>
      api
        .GET('/api/v1/orgs/{orgId}/apps', { params: { path: { orgId } }, signal })
        .then(unwrap)
        .then((page) => page.items.map(({ id, slug }) => ({ id, slug }))),
  })
