import { ComingSoon } from '../../components/coming-soon'
import { PageHeader } from '../../components/page-header'
import type { RequireOrgSlot } from '../../lib/org-scope'

/** /dashboard/settings: placeholder screen (Data Management); shows the organization prompt, then a not-yet-available note. */
export function SettingsPage({ requireOrg }: { requireOrg: RequireOrgSlot }) {
  return (
    <>
      <PageHeader
        title="Data Management"
        description="Export, import and clone the organization’s data."
      />
      {requireOrg(() => (
        <ComingSoon>
          <p>Export, import and clone are not available yet.</p>
        </ComingSoon>
      ))}
    </>
  )
}
