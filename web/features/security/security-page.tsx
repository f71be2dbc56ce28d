import { Link } from 'react-router'
import { ComingSoon } from '../../components/coming-soon'
import { PageHeader } from '../../components/page-header'
import { orgPath } from '../../lib/org-path'
import { useOrgScope } from '../../lib/org-scope'
import { TenantTokensPanel } from './tenant-tokens-panel'

/** /dashboard/:orgSlug/security: the link to the audit log; tokens and API keys are still to come. */
export function SecurityPage() {
  const scope = useOrgScope()
  return (
    <>
      <PageHeader
        title="Security"
        description="Tenant-scoped tokens and API keys for the current organization."
      />
      <p className="text-sm">
        <Link className="underline" to={orgPath({ orgSlug: scope.orgSlug }, 'audit')}>
          Audit log
        </Link>
        : who did what, when (owners and admins).
      </p>
      <TenantTokensPanel />
      <ComingSoon>
        <p>Token minting and API-key management are not available yet.</p>
      </ComingSoon>
    </>
  )
}
