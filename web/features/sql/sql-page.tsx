import { RequireOrg } from '../../app/require-org'
import { ComingSoon } from '../../components/coming-soon'
import { PageHeader } from '../../components/page-header'

/** /dashboard/sql: placeholder screen (SQL Runner); shows the organization prompt, then a not-yet-available note. */
export function SqlPage() {
  return (
    <>
      <PageHeader
        title="SQL Runner"
        description="Run read-only queries against the organization’s data."
      />
      <RequireOrg>
        {() => (
          <ComingSoon>
            <p>SQL Runner is coming soon.</p>
          </ComingSoon>
        )}
      </RequireOrg>
    </>
  )
}
