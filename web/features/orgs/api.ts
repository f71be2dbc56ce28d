/** TanStack Query factories for the organisations the user belongs to and the apps of one organisation. */
import { queryOptions } from '@tanstack/react-query'
import { api, ApiError, unwrap } from '../../lib/api'
import { authClient } from '../../lib/auth-client'

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

/** The signed-in user's organisations, sorted by name. Key `['orgs']` (user-scoped, cleared on sign-out). */
export const orgsQuery = () =>
  queryOptions({
    queryKey: ['orgs'] as const,
    queryFn: async (): Promise<OrgSummary[]> => {
      const { data, error } = await authClient.organization.list()
      if (error) throw new ApiError(error.status, { detail: error.message }, error.statusText)
      return (data ?? [])
        .map(({ id, name, slug }) => ({ id, name, slug }))
        .sort((a, b) => a.name.localeCompare(b.name))
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
