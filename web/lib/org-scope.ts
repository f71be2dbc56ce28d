/**
 * The organisation (and app) a dashboard screen shows, read from its URL:
 * `/dashboard/:orgSlug/<screen>?app=<appSlug>` (decision 0042). The `:orgSlug` route element
 * (web/features/orgs) resolves the slugs to ids against the user's organisations and provides
 * them here, so feature screens read the scope without importing the orgs feature, and two tabs
 * on two organisations never share it.
 */
import { createContext, useContext } from 'react'

/** The organisation, and the app within it (null for 'All apps'), whose data a screen shows. */
export interface OrgScope {
  orgId: string
  appId: string | null
}

/** An `OrgScope` with the slugs its URL names it by, for building links that keep it. */
export interface OrgUrlScope extends OrgScope {
  /** The organisation's URL slug (the `:orgSlug` path segment). */
  orgSlug: string
  /** The app's slug (the `app` search parameter), null for 'All apps'. */
  appSlug: string | null
}

/** Set by the `:orgSlug` route element once the URL's slugs are resolved; null outside it. */
export const OrgScopeContext = createContext<OrgUrlScope | null>(null)

/**
 * The scope of the current URL. Throws outside `/dashboard/:orgSlug/…` (a screen rendered
 * elsewhere is a wiring bug, not a state to show).
 */
export function useOrgScope(): OrgUrlScope {
  const scope = useContext(OrgScopeContext)
  if (scope === null) throw new Error('useOrgScope must be used under /dashboard/:orgSlug')
  return scope
}

/** The scope of the current URL, or null outside `/dashboard/:orgSlug/…` (shared chrome). */
export function useOrgScopeIfAny(): OrgUrlScope | null {
  return useContext(OrgScopeContext)
}
