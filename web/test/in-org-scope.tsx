/** Test helper: renders a screen as the `/dashboard/:orgSlug` route element would provide it. */
import type { ReactElement } from 'react'
import { OrgScopeContext, type OrgUrlScope } from '../lib/org-scope'

/** `element` under the URL scope `scope` (organisation `org-1`, slug `acme-law`, all apps by default). */
export function inOrgScope(element: ReactElement, scope: Partial<OrgUrlScope> = {}): ReactElement {
  const value: OrgUrlScope = {
    orgId: 'org-1',
    orgSlug: 'acme-law',
    appId: null,
    appSlug: null,
    ...scope,
  }
  return <OrgScopeContext.Provider value={value}>{element}</OrgScopeContext.Provider>
}
