import { PageHeader } from '../../components/page-header'
import { useOrgScope } from '../../lib/org-scope'
import { AuditScreen } from './audit-screen'

/** /dashboard/:orgSlug/audit: who did what, when, in the URL's organisation (owners and admins). */
export function AuditPage() {
  const scope = useOrgScope()
  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every change made in the current organization: who did what, when."
      />
      <AuditScreen key={scope.orgId} scope={scope} />
    </>
  )
}
