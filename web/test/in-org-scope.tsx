/** Test helper: renders a screen as the `/dashboard/:orgSlug` route element would provide it. */
import type { ReactElement } from 'react'
import { OrgRoleContext, type OrgRole } from '../lib/org-role'
import { OrgScopeContext, type OrgUrlScope } from '../lib/org-scope'

/**
 * `element` under the URL scope `scope` (organisation `org-1`, slug `acme-law`, all apps by
 * default) with the signed-in person's `role` there (owner by default).
 */
export function inOrgScope(
  element: ReactElement,
  scope: Partial<OrgUrlScope> = {},
  role: OrgRole = 'owner',
): ReactElement {
  const value: OrgUrlScope = {
    orgId: 'org-1',
    orgSlug: 'acme-law',
    appId: null,
    appSlug: null,
    ...scope,
  }
  return (
    <OrgScopeContext.Provider value={value}>
      <OrgRoleContext.Provider value={role}>{element}</OrgRoleContext.Provider>
    </OrgScopeContext.Provider>
  )
}
