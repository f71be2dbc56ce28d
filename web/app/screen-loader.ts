/**
 * Route loaders of the dashboard's screens: as a screen opens, the first queries it shows are
 * started in the QueryClient (resolving the URL's organisation, app and role first), so they run
 * alongside the screen's code and each other instead of one after another as components mount.
 * The loader does not wait for them: the screen opens at once on its 'Loading…' state and its
 * own queries take up the requests already under way (same keys), as React Router renders a
 * route only once its loader settles and a slow list should not hold the previous screen.
 */
import type { QueryClient } from '@tanstack/react-query'
import type { LoaderFunction } from 'react-router'
import { appsQuery, memberRoleQuery, orgsQuery } from '../features/orgs/api/orgs'
import type { OrgRole } from '../lib/org-role'
import { routeQueryClient } from './route-query-client'

/** What a screen's prefetch is told: the URL's organisation and app, the person's role there. */
export interface LoaderScope {
  orgId: string
  appId: string | null
  role: OrgRole
  /** The URL's search parameters (e.g. `?entity=` of the audit log's link). */
  search: URLSearchParams
}

/**
 * A screen's first queries, each a prefetch on the client built from the screen's own query
 * options (the same keys), e.g. `(scope) => [(c) => c.prefetchQuery(eventsQuery(scope.orgId, ''))]`.
 */
export type ScreenQueries = (scope: LoaderScope) => ((client: QueryClient) => Promise<void>)[]

/**
 * Resolves the URL's organisation (and `?app=`) and role through the same queries as the org
 * layout, then prefetches `queries(scope)`. Never throws and never waits on a failure: an
 * unknown organisation, a refused role or a failed list is the screen's to say, as without a
 * loader.
 */
export async function prefetchScreen(
  client: QueryClient,
  orgSlug: string,
  search: URLSearchParams,
  queries: ScreenQueries,
): Promise<void> {
  try {
    const orgs = await client.ensureQueryData(orgsQuery())
    const org = orgs.find((o) => o.slug === orgSlug)
    if (!org) return
    const appSlug = search.get('app')
    const [apps, role] = await Promise.all([
      appSlug ? client.ensureQueryData(appsQuery(org.id)) : Promise.resolve([]),
      client.ensureQueryData(memberRoleQuery(org.id)),
    ])
    const appId = appSlug ? (apps.find((a) => a.slug === appSlug)?.id ?? null) : null
    if (appSlug && appId === null) return
    await Promise.all(
      queries({ orgId: org.id, appId, role, search }).map((prefetch) => prefetch(client)),
    )
  } catch {
    // The org layout and the screen read the same queries and say what failed.
  }
}

/**
 * The loader of a screen under `/dashboard/:orgSlug`: starts `queries` (see prefetchScreen) and
 * returns at once, without waiting for them, so the navigation is not held by a slow list.
 */
export function screenLoader(queries: ScreenQueries): LoaderFunction {
  return ({ params, request }) => {
    const client = routeQueryClient()
    if (client)
      void prefetchScreen(client, params.orgSlug ?? '', new URL(request.url).searchParams, queries)
    return null
  }
}
