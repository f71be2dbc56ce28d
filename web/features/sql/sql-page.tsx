import { ComingSoon } from '../../components/coming-soon'
import { PageHeader } from '../../components/page-header'

/** /dashboard/:orgSlug/sql: placeholder screen (SQL Runner); a not-yet-available note. */
export function SqlPage() {
  return (
    <>
      <PageHeader
        title="SQL Runner"
        description="Run read-only queries against the organization’s data."
      />
      <ComingSoon>
        <p>SQL Runner is coming soon.</p>
      </ComingSoon>
    </>
  )
}
