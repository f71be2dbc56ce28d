import { PageHeader } from '../../components/page-header'
import { useOrgScope } from '../../lib/org-scope'
import { SqlScreen } from './sql-screen'

/** /dashboard/:orgSlug/sql: read-only queries over the URL's organisation (owners and admins). */
export function SqlPage() {
  const scope = useOrgScope()
  return (
    <>
      <PageHeader
        title="SQL Runner"
        description="Run read-only queries against the organization’s data."
      />
      <SqlScreen key={scope.orgId} orgId={scope.orgId} />
    </>
  )
}
