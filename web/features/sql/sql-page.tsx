import { ComingSoon } from '../../components/coming-soon'
import { PageHeader } from '../../components/page-header'
import type { RequireOrgSlot } from '../../lib/org-scope'

/** /dashboard/sql: placeholder screen (SQL Runner); shows the organization prompt, then a not-yet-available note. */
export function SqlPage({ requireOrg }: { requireOrg: RequireOrgSlot }) {
  return (
    <>
      <PageHeader
        title="SQL Runner"
        description="Run read-only queries against the organization’s data."
      />
      {requireOrg(() => (
        <ComingSoon>
          <p>SQL Runner is coming soon.</p>
        </ComingSoon>
      ))}
    </>
  )
}
