import { Outlet } from 'react-router'
import { LoadingScreen } from '../components/loading-screen'
import { UnknownScope } from '../features/orgs/components/unknown-scope'
import { useResolvedOrgScope } from '../features/orgs/hooks/use-resolved-org-scope'
import { OrgRoleContext } from '../lib/org-role'
import { OrgScopeContext } from '../lib/org-scope'
import { DashboardShell } from './dashboard-shell'

/**
 * Route element of /dashboard/:orgSlug: resolves the URL's organisation (and `?app=`) and the
 * person's role in it, and provides them to the screens below (`useOrgScope()`, `useOrgRole()`);
 * an unknown one shows where to go instead.
 */
export function OrgLayout() {
  const resolved = useResolvedOrgScope()
  if (resolved.status === 'loading') return <LoadingScreen />
  if (resolved.status !== 'ok') {
    return (
      <DashboardShell>
        <UnknownScope resolved={resolved} />
      </DashboardShell>
    )
  }
  return (
    <OrgScopeContext.Provider value={resolved.scope}>
      <OrgRoleContext.Provider value={resolved.role}>
        <DashboardShell>
          <Outlet />
        </DashboardShell>
      </OrgRoleContext.Provider>
    </OrgScopeContext.Provider>
  )
}
